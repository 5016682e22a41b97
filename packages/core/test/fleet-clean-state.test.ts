import { describe, expect, it } from 'vitest';
import { createFleet, openOn, writeOn } from './fleet-harness';

const cleanCheckpointOf = async (store: ReturnType<typeof createFleet>['store'], id: string) => (await store.getSession(id))?.backend?.cleanCheckpointId ?? null;

describe('clean/dirty state in the store', () => {
  it('a checkpoint of a clean runtime through another node reuses its snapshot without a provider call', async () => {
    const { node, provider } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    await writeOn(a, id, 'a.txt', 'x');
    await a.checkpoint({ runtime_id: id });
    const snapshots = provider.calls.checkpoint;
    expect((await b.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(provider.calls.checkpoint).toBe(snapshots);
  });

  it('after a restart (a new service on the same store) the first checkpoint of a clean runtime reuses its snapshot', async () => {
    const { node, provider } = createFleet();
    const id = await openOn(node('node-a'));
    await node('node-a').checkpoint({ runtime_id: id });
    const snapshots = provider.calls.checkpoint;
    expect((await node('node-a').checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(provider.calls.checkpoint).toBe(snapshots);
  });

  it('a write through another node after a checkpoint makes the next checkpoint a new snapshot', async () => {
    const { node, provider } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    await a.checkpoint({ runtime_id: id });
    await writeOn(b, id, 'b.txt', 'y');
    const snapshots = provider.calls.checkpoint;
    expect((await a.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect(provider.calls.checkpoint).toBe(snapshots + 1);
  });

  it('the first mutating operation after a checkpoint records the runtime dirty before it reaches the provider', async () => {
    const { node, store, gate } = createFleet();
    const a = node('node-a');
    const id = await openOn(a);
    const { checkpoint_id } = await a.checkpoint({ runtime_id: id });
    expect(await cleanCheckpointOf(store, id)).toBe(checkpoint_id);
    const running = a.exec({ runtime_id: id, command: 'block' });
    await gate.started;
    expect(await cleanCheckpointOf(store, id)).toBeNull();
    gate.release();
    await running;
  });

  it('an already-dirty runtime costs no store write per data operation (once an exec has recorded it may run processes)', async () => {
    const { node, store } = createFleet();
    const a = node('node-a');
    const id = await openOn(a);
    await a.checkpoint({ runtime_id: id });
    await writeOn(a, id, 'first.txt', '1');
    // A write leaves a runtime that ran nothing still running nothing; the first exec records that may change.
    await a.exec({ runtime_id: id, command: 'true' });
    const commits = store.commits.length;
    await writeOn(a, id, 'second.txt', '2');
    await a.exec({ runtime_id: id, command: 'true' });
    await a.mkdir({ runtime_id: id, path: 'dir' });
    await a.tempPath({ runtime_id: id });
    expect(store.commits.length).toBe(commits);
  });

  it('reads leave a clean runtime clean without a store write', async () => {
    const { node, store } = createFleet();
    const a = node('node-a');
    const id = await openOn(a);
    await writeOn(a, id, 'a.txt', 'x');
    const { checkpoint_id } = await a.checkpoint({ runtime_id: id });
    const commits = store.commits.length;
    await a.readFile({ runtime_id: id, path: 'a.txt' });
    await a.stat({ runtime_id: id, path: 'a.txt' });
    await a.search({ runtime_id: id, glob: '**/*' });
    expect(store.commits.length).toBe(commits);
    expect(await cleanCheckpointOf(store, id)).toBe(checkpoint_id);
  });

  it('a checkout child starts clean in the store, so its first checkpoint through any node reuses the snapshot', async () => {
    const { node, store, provider } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    const { checkpoint_id } = await a.checkpoint({ runtime_id: id });
    const child = (await a.checkout({ checkpoint_id })).runtime.runtime_id;
    expect(await cleanCheckpointOf(store, child)).toBe(checkpoint_id);
    const snapshots = provider.calls.checkpoint;
    expect((await b.checkpoint({ runtime_id: child })).reused_backend_snapshot).toBe(true);
    expect(provider.calls.checkpoint).toBe(snapshots);
  });

  it('a resumed runtime starts clean in the store (its pause checkpoint)', async () => {
    const { node, store } = createFleet();
    const a = node('node-a');
    const id = await openOn(a);
    const paused = await a.pause({ runtime_id: id });
    await node('node-b').resume({ runtime_id: id });
    expect(await cleanCheckpointOf(store, id)).toBe(paused.checkpoint_id);
  });

  it('a clean runtime whose snapshot was deleted makes a new snapshot at its next checkpoint', async () => {
    const { node, provider } = createFleet();
    const [a, b] = [node('node-a'), node('node-b')];
    const id = await openOn(a);
    const { checkpoint_id } = await a.checkpoint({ runtime_id: id });
    await a.deleteCheckpointSnapshot({ checkpoint_id });
    const snapshots = provider.calls.checkpoint;
    expect((await b.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(false);
    expect(provider.calls.checkpoint).toBe(snapshots + 1);
  });
});
