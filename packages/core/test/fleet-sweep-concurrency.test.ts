import { describe, expect, it } from 'vitest';
import type { BackendProviderV1, RuntimeService } from '@runtimectl/core';
import { delegatingProvider } from '@runtimectl/testkit';
import { asFleetProvider, crashedOpen, createFleet, LEASE_MS, openOn, writeOn } from './fleet-harness';
import { createGate } from './harness';

/**
 * A maintenance sweep lists the provider's resources and takes what no record or in-flight
 * intent accounts for as orphans. An operation on a live node that starts while the sweep is
 * listing has its resource in the listing: the sweep must see its intent too.
 */
function sweptFleet() {
  const fleet = createFleet();
  const inner = asFleetProvider(fleet.provider);
  const held = createGate();
  let hold: 'create' | 'checkpoint' | null = null;
  let whileListing: (() => Promise<void>) | undefined;
  const provider: BackendProviderV1 = delegatingProvider(inner, {
    locality: 'fleet',
    create: async (request) => {
      const backend = await inner.create(request);
      if (hold === 'create') {
        held.enter();
        await held.opened;
      }
      return backend;
    },
    checkpoint: async (backend, request) => {
      const snapshot = await inner.checkpoint!(backend, request);
      if (hold === 'checkpoint') {
        held.enter();
        await held.opened;
      }
      return snapshot;
    },
    listOwnedResources: async (installationId) => {
      const run = whileListing;
      whileListing = undefined;
      await run?.();
      return inner.listOwnedResources!(installationId);
    },
  });
  const [a, b] = [fleet.node('node-a', [provider]), fleet.node('node-b', [provider])];
  return {
    fleet,
    a,
    b,
    held,
    /** The next listing first starts `operation` (on a live node) and waits until its provider call is done but not committed. */
    duringNextListing(call: 'create' | 'checkpoint', operation: () => Promise<unknown>): Promise<unknown> {
      let started!: Promise<unknown>;
      const result = new Promise<unknown>((resolve) => {
        whileListing = async () => {
          hold = call;
          started = operation();
          resolve(started);
          await Promise.race([held.started, started]);
        };
      });
      return result.then(() => started);
    },
  };
}

/** Node `dead` leaves an open intent behind and dies, so the live node's next maintenance sweeps. */
async function leaveAbandonedIntent(fleet: ReturnType<typeof createFleet>, dead: RuntimeService): Promise<void> {
  await crashedOpen(fleet, dead);
  await dead.stop();
  fleet.store.skewMs += LEASE_MS + 1;
}

describe('maintenance sweeps racing operations on live nodes', () => {
  it('a backend whose create starts while the sweep lists the provider is not released as an orphan', async () => {
    const { fleet, a, b, held, duringNextListing } = sweptFleet();
    await a.reconcile();
    await b.reconcile();
    await leaveAbandonedIntent(fleet, a);
    await fleet.store.heartbeatNode('node-b', LEASE_MS);
    const opening = duringNextListing('create', () => openOn(b));
    const report = await b.maintain();
    held.release();
    const runtimeId = (await (await opening)) as string;
    expect(report?.releasedBackends).toHaveLength(1); // the dead node's orphan only
    await writeOn(b, runtimeId, 'still-here.txt', 'yes');
    expect(fleet.provider.liveBackendIds()).toHaveLength(1);
    await b.stop();
  });

  it('a snapshot taken while the sweep lists the provider is not deleted as an orphan before its record is committed', async () => {
    const { fleet, a, b, held, duringNextListing } = sweptFleet();
    await a.reconcile();
    await b.reconcile();
    const runtimeId = await openOn(b);
    await writeOn(b, runtimeId, 'f.txt', 'x');
    await leaveAbandonedIntent(fleet, a);
    await fleet.store.heartbeatNode('node-b', LEASE_MS);
    const checkpointing = duringNextListing('checkpoint', () => b.checkpoint({ runtime_id: runtimeId }));
    const report = await b.maintain();
    held.release();
    await checkpointing;
    expect(report?.deletedSnapshots).toEqual([]);
    expect(fleet.provider.snapshotIds()).toHaveLength(1);
    await b.stop();
  });
});
