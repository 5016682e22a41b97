import { describe, expect, it } from 'vitest';
import type { StoreBatch } from '@runtimectl/core';
import { crashedOpen, createFleet, LEASE_MS, openOn, writeOn } from './fleet-harness';
import { rejectionOf } from './harness';

describe('intents across nodes', () => {
  it('intents carry the node that recorded them', async () => {
    const fleet = createFleet();
    const a = fleet.node('node-a');
    await a.start();
    await crashedOpen(fleet, a);
    expect((await fleet.store.listIntents()).map((intent) => intent.nodeId)).toEqual(['node-a']);
    await a.stop();
  });

  it('a live node’s open intents and their resources are left alone by another node’s reconciliation', async () => {
    const fleet = createFleet();
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await a.reconcile();
    await crashedOpen(fleet, a);
    const report = await b.reconcile();
    expect(report.resolvedIntents).toBe(0);
    expect(fleet.provider.liveBackendIds()).toHaveLength(1);
    expect(await fleet.store.listIntents()).toHaveLength(1);
    await a.stop();
    await b.stop();
  });

  it('a dead node’s intents are taken over by a live node only after its lease time', async () => {
    const fleet = createFleet();
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await a.reconcile();
    await b.reconcile();
    await crashedOpen(fleet, a);
    await a.stop(); // stops heartbeating: "dies"
    await b.maintain();
    expect(await fleet.store.listIntents()).toHaveLength(1);
    expect(fleet.provider.liveBackendIds()).toHaveLength(1);
    fleet.store.skewMs += LEASE_MS + 1;
    await b.maintain();
    expect(await fleet.store.listIntents()).toEqual([]);
    expect(fleet.provider.liveBackendIds()).toEqual([]);
    await b.stop();
  });

  it('a restarted node resolves its own intents at start', async () => {
    const fleet = createFleet();
    const a = fleet.node('node-a');
    await a.reconcile();
    await crashedOpen(fleet, a);
    await a.stop();
    const restarted = fleet.node('node-a');
    fleet.store.skewMs += LEASE_MS + 1; // its previous life's maintenance lease lapsed
    expect((await restarted.reconcile()).resolvedIntents).toBe(1);
    expect(fleet.provider.liveBackendIds()).toEqual([]);
    await restarted.stop();
  });

  it('a dead node’s orphaned snapshot is deleted once no live node is snapshotting, even when the first sweep ran while one was', async () => {
    const fleet = createFleet();
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await a.reconcile();
    await b.reconcile();
    const id = await openOn(a);
    await writeOn(a, id, 'f.txt', 'x');
    // a dies between the provider's snapshot and the commit that records it.
    const commit = fleet.store.commit.bind(fleet.store);
    fleet.store.commit = async (batch: StoreBatch) => {
      if ((batch.checkpoints?.length ?? 0) > 0) {
        fleet.store.commit = commit;
        throw new Error('simulated crash before commit');
      }
      return commit(batch);
    };
    await rejectionOf(a.checkpoint({ runtime_id: id }));
    expect(fleet.provider.snapshotIds()).toHaveLength(1);
    await a.stop();
    // Meanwhile b is making a snapshot of its own: its snapshot's record is yet to come.
    const inFlight = { intentId: 'bcp_inflight', kind: 'snapshot' as const, providerId: 'memory', runtimeId: id, backendId: 'backend-of-b', createdAtMs: Date.now(), nodeId: 'node-b' };
    await fleet.store.commit({ intents: [inFlight] });
    fleet.store.skewMs += LEASE_MS + 1;
    await fleet.store.heartbeatNode('node-b', LEASE_MS);
    await b.maintain();
    expect(fleet.provider.snapshotIds()).toHaveLength(1);
    await fleet.store.commit({ resolvedIntentIds: ['bcp_inflight'] });
    await fleet.store.heartbeatNode('node-b', LEASE_MS);
    await b.maintain();
    expect(fleet.provider.snapshotIds()).toEqual([]);
    expect(await fleet.store.listIntents()).toEqual([]);
    await b.stop();
  });

  it('only the maintenance lease holder sweeps orphaned provider resources', async () => {
    const fleet = createFleet();
    const [a, b] = [fleet.node('node-a'), fleet.node('node-b')];
    await a.reconcile();
    await crashedOpen(fleet, a);
    await fleet.store.commit({ resolvedIntentIds: (await fleet.store.listIntents()).map((intent) => intent.intentId) });
    expect((await b.reconcile()).releasedBackends).toEqual([]);
    expect(fleet.provider.liveBackendIds()).toHaveLength(1);
    await a.stop();
    fleet.store.skewMs += LEASE_MS + 1;
    await b.maintain();
    expect(fleet.provider.liveBackendIds()).toEqual([]);
    await b.stop();
  });
});
