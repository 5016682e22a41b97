import { describe, expect, it } from 'vitest';
import { createFleet, LEASE_MS, openOn } from './fleet-harness';
import { rejectionOf } from './harness';

describe('leases across nodes', () => {
  it('a control operation through another node fails fast with session_busy while one runs', async () => {
    const { node, gate } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    const running = a.exec({ runtime_id: id, command: 'block' });
    await gate.started;
    expect(await rejectionOf(b.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'session_busy', message: `runtime ${id} is busy: an operation is in flight` });
    gate.release();
    await running;
    await b.checkpoint({ runtime_id: id });
  });

  it('another node’s operation in flight makes the runtime read as running on every node', async () => {
    const { node, gate } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    const running = a.exec({ runtime_id: id, command: 'block' });
    await gate.started;
    expect((await b.get(id)).runtime.status).toBe('running');
    expect((await b.list({ status: 'running' })).runtimes.map((r) => r.runtime_id)).toEqual([id]);
    expect(await b.runtimeCounts()).toMatchObject({ running: 1, idle: 0 });
    gate.release();
    await running;
    expect((await b.get(id)).runtime.status).toBe('idle');
  });

  it('an operation whose lease lapsed before its commit fails with lease_lost, commits nothing and leaves its snapshot intent open', async () => {
    const { node, store } = createFleet();
    const a = node('node-a');
    const id = await openOn(a);
    store.lapseBeforeNextSessionCommit(LEASE_MS + 1);
    expect(await rejectionOf(a.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'lease_lost' });
    expect((await a.get(id)).head_checkpoint_id).toBeNull();
    // Its provider work is handed to the maintenance holder (node id cleared), not kept by a node that is alive.
    expect((await store.listIntents()).map((intent) => [intent.kind, intent.nodeId])).toEqual([['snapshot', null]]);
  });

  it('the snapshot a refused (lease_lost) checkpoint made is deleted by the maintenance holder while its node lives on', async () => {
    const { node, store, provider } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    await a.reconcile();
    const id = await openOn(a);
    await a.writeFile({ runtime_id: id, path: 'f.txt', content_base64: Buffer.from('x').toString('base64') });
    store.lapseBeforeNextSessionCommit(LEASE_MS + 1);
    expect(await rejectionOf(a.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'lease_lost' });
    expect(provider.snapshotIds()).toHaveLength(1);
    await store.heartbeatNode('node-a', LEASE_MS); // a lives on: only its lease on the runtime lapsed
    await b.maintain();
    expect(provider.snapshotIds()).toEqual([]);
    expect(await store.listIntents()).toEqual([]);
    await a.stop();
    await b.stop();
  });

  it('a node whose lease lapsed cannot commit after another node took the runtime over', async () => {
    const { node, store } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    await a.update({ runtime_id: id, metadata: { by: 'a' } });
    store.lapseBeforeNextSessionCommit(LEASE_MS + 1);
    const stalled = a.update({ runtime_id: id, metadata: { by: 'stalled a' } });
    expect(await rejectionOf(stalled)).toMatchObject({ code: 'lease_lost' });
    await b.update({ runtime_id: id, metadata: { by: 'b' } });
    expect((await a.get(id)).metadata).toEqual({ by: 'b' });
  });
});
