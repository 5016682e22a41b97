import { describe, expect } from 'vitest';
import type { LeaseMode } from '@runtimectl/core';
import { granted, lapsed, leaseRequest, LEASE_MODES, RENEWED_TTL_MS, SHORT_TTL_MS } from './lease-fixtures';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { storeTest, useStoreHarness } from './store-harness';

/** Whether a request of `requested` is granted while a lease of `held` is unexpired (RuntimeLocks' rules). */
const COMPATIBLE: Record<LeaseMode, Record<LeaseMode, boolean>> = {
  shared: { shared: true, checkout: false, exclusive: false },
  checkout: { shared: true, checkout: true, exclusive: false },
  exclusive: { shared: false, checkout: false, exclusive: false },
};

const article = (mode: LeaseMode) => (mode === 'exclusive' ? 'an' : 'a');

/**
 * Runtime leases (LeaseStore): the RuntimeLocks conflict rules across every node of the store,
 * release, expiry on the store's clock, renewal by the holder's heartbeat, the busy list, and
 * of racing conflicting requests exactly one granted.
 */
export function leaseTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('runtime leases', () => {
    const harness = useStoreHarness(resolved);

    for (const held of LEASE_MODES) {
      for (const requested of LEASE_MODES) {
        const outcome = COMPATIBLE[held][requested] ? 'is granted' : 'conflicts';
        test(`${article(requested)} ${requested} request while another node holds ${article(held)} ${held} lease ${outcome}`, async () => {
          const [nodeA, nodeB] = await harness.nodes(2);
          await granted(nodeA!, leaseRequest('rt-1', held, { holderId: 'node-a' }));
          const grant = await nodeB!.acquireLease(leaseRequest('rt-1', requested, { holderId: 'node-b' }));
          expect(grant.granted).toBe(COMPATIBLE[held][requested]);
          if (!grant.granted) expect(grant.conflict).toMatch(/\S/);
        });
      }
    }

    test('leases of one holder conflict with each other as any two do (a lease belongs to an operation, not to its node)', async () => {
      await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      expect((await harness.store.acquireLease(leaseRequest('rt-1', 'exclusive'))).granted).toBe(false);
      expect((await harness.store.acquireLease(leaseRequest('rt-1', 'shared'))).granted).toBe(false);
    });

    test('leases of different runtimes never conflict', async () => {
      await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      await granted(harness.store, leaseRequest('rt-2', 'exclusive'));
      await granted(harness.store, leaseRequest('rt-1:checkout:x', 'exclusive'));
    });

    test('a granted fence names its runtime and a token; every grant gets a new token', async () => {
      const fences = [];
      for (const mode of ['checkout', 'shared', 'shared'] as const) fences.push(await granted(harness.store, leaseRequest('rt-1', mode)));
      fences.push(await granted(harness.store, leaseRequest('rt-2', 'exclusive')));
      expect(fences.map((fence) => fence.runtimeId)).toStrictEqual(['rt-1', 'rt-1', 'rt-1', 'rt-2']);
      for (const fence of fences) expect(fence.token).toMatch(/\S/);
      expect(new Set(fences.map((fence) => fence.token)).size).toBe(fences.length);
    });

    test('a released lease no longer conflicts; releasing it again, or an unknown fence, is ignored', async () => {
      const fence = await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      await harness.store.releaseLease(fence);
      const next = await granted(harness.store, leaseRequest('rt-1', 'exclusive', { holderId: 'node-b' }));
      await harness.store.releaseLease(fence);
      await harness.store.releaseLease({ runtimeId: 'rt-1', token: 'no-such-token' });
      await harness.store.releaseLease({ runtimeId: 'rt-unknown', token: fence.token });
      expect((await harness.store.acquireLease(leaseRequest('rt-1', 'shared'))).granted).toBe(false);
      await harness.store.releaseLease(next);
      await granted(harness.store, leaseRequest('rt-1', 'shared'));
    });

    test('releasing one of two shared leases keeps the runtime held by the other', async () => {
      const first = await granted(harness.store, leaseRequest('rt-1', 'shared'));
      await granted(harness.store, leaseRequest('rt-1', 'shared', { holderId: 'node-b' }));
      await harness.store.releaseLease(first);
      expect((await harness.store.acquireLease(leaseRequest('rt-1', 'exclusive'))).granted).toBe(false);
      expect(await harness.store.listBusyRuntimeIds()).toStrictEqual(['rt-1']);
    });

    test('a lapsed lease no longer conflicts, and the lease granted after it has a new token', async () => {
      const [nodeA, nodeB] = await harness.nodes(2);
      const dead = await granted(nodeA!, leaseRequest('rt-1', 'exclusive', { ttlMs: SHORT_TTL_MS }));
      expect((await nodeB!.acquireLease(leaseRequest('rt-1', 'shared', { holderId: 'node-b' }))).granted).toBe(false);
      await lapsed(nodeB!, 'rt-1');
      const next = await granted(nodeB!, leaseRequest('rt-1', 'exclusive', { holderId: 'node-b' }));
      expect(next.token).not.toBe(dead.token);
      // The lapsed holder releasing late does not end the lease granted since.
      await nodeA!.releaseLease(dead);
      expect((await nodeA!.acquireLease(leaseRequest('rt-1', 'shared'))).granted).toBe(false);
    });

    test('tokens are never reused, not even across a restart of the store', async () => {
      const before = await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      await harness.store.releaseLease(before);
      const reopened = await harness.restart();
      const after = await granted(reopened, leaseRequest('rt-1', 'exclusive'));
      expect(after.token).not.toBe(before.token);
    });

    test('renewLeases extends the unexpired leases of that holder only, and revives none that lapsed', async () => {
      const [nodeA, nodeB] = await harness.nodes(2);
      await granted(nodeA!, leaseRequest('rt-lapsed', 'shared', { ttlMs: 1 }));
      await lapsed(nodeA!, 'rt-lapsed');
      // node-b's lease is granted after node-a's and lives longer: once it lapsed, node-a's would have too.
      await granted(nodeA!, leaseRequest('rt-a1', 'shared', { ttlMs: RENEWED_TTL_MS }));
      await granted(nodeA!, leaseRequest('rt-a2', 'exclusive', { ttlMs: RENEWED_TTL_MS }));
      await granted(nodeB!, leaseRequest('rt-b', 'shared', { holderId: 'node-b', ttlMs: 2 * RENEWED_TTL_MS }));
      expect(await nodeA!.renewLeases('node-a', 60_000)).toBe(2);
      await lapsed(nodeB!, 'rt-b');
      expect((await nodeB!.listBusyRuntimeIds()).sort()).toStrictEqual(['rt-a1', 'rt-a2']);
      expect((await nodeB!.acquireLease(leaseRequest('rt-a2', 'shared', { holderId: 'node-b' }))).granted).toBe(false);
      await granted(nodeB!, leaseRequest('rt-lapsed', 'exclusive', { holderId: 'node-b' }));
      expect(await nodeB!.renewLeases('node-unknown', 60_000)).toBe(0);
    });

    test('listBusyRuntimeIds lists runtimes with an unexpired shared or exclusive lease, not checkout-only ones', async () => {
      expect(await harness.store.listBusyRuntimeIds()).toStrictEqual([]);
      await granted(harness.store, leaseRequest('rt-shared', 'shared'));
      await granted(harness.store, leaseRequest('rt-shared', 'shared', { holderId: 'node-b' }));
      await granted(harness.store, leaseRequest('rt-exclusive', 'exclusive'));
      await granted(harness.store, leaseRequest('rt-checkout', 'checkout'));
      const released = await granted(harness.store, leaseRequest('rt-released', 'exclusive'));
      await harness.store.releaseLease(released);
      expect((await harness.store.listBusyRuntimeIds()).sort()).toStrictEqual(['rt-exclusive', 'rt-shared']);
    });

    test('of eight nodes racing for one runtime exclusively, exactly one is granted', async () => {
      const nodes = await harness.nodes(8);
      for (let round = 0; round < 3; round += 1) {
        const runtimeId = `rt-race-${round}`;
        const grants = await Promise.all(
          nodes.map((node, index) => node.acquireLease(leaseRequest(runtimeId, 'exclusive', { holderId: `node-${index}` }))),
        );
        expect(grants.filter((grant) => grant.granted)).toHaveLength(1);
      }
    });

    test('of shared and exclusive requests racing for one runtime, either every shared one or the one exclusive one is granted', async () => {
      const nodes = await harness.nodes(6);
      const modes: LeaseMode[] = ['shared', 'exclusive', 'shared', 'exclusive', 'shared', 'shared'];
      const grants = await Promise.all(
        nodes.map((node, index) => node.acquireLease(leaseRequest('rt-mixed', modes[index]!, { holderId: `node-${index}` }))),
      );
      const winners = modes.filter((_, index) => grants[index]!.granted);
      const oneExclusive = winners.length === 1 && winners[0] === 'exclusive';
      const onlyShared = winners.length > 0 && winners.every((mode) => mode === 'shared');
      expect(oneExclusive || onlyShared, `granted: ${winners.join(', ')}`).toBe(true);
    });
  });
}
