import type { RuntimeFence } from '@runtimectl/core';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fleetStatements } from '../src/fleet-statements';
import type { PostgresRuntimeStore } from '../src/index';
import { storeOnFreshSchema } from './test-store';

let fleet: Awaited<ReturnType<typeof storeOnFreshSchema>>;
let peer: PostgresRuntimeStore;
beforeEach(async () => {
  fleet = await storeOnFreshSchema();
  peer = await fleet.reopen();
});
afterEach(async () => {
  await Promise.all([fleet.store.close(), peer.close()]);
  await fleet.cleanup();
});

async function granted(store: PostgresRuntimeStore, holderId: string, ttlMs: number): Promise<RuntimeFence> {
  const grant = await store.acquireLease({ runtimeId: 'rt-1', holderId, mode: 'exclusive', ttlMs });
  if (!grant.granted) throw new Error(`not granted: ${grant.conflict}`);
  return grant.fence;
}

describe('a takeover never interleaves with a late commit of the lapsed holder', () => {
  test('while a commit holds its fence (checked, FOR SHARE) the lease cannot be taken over even once it lapsed; after COMMIT it can', async () => {
    // The stalled node's commit, stopped right after its fence check: the statement the store runs first in every fenced commit.
    const stalled = new pg.Client(fleet.url);
    await stalled.connect();
    try {
      await stalled.query('BEGIN');
      const fence = await granted(fleet.store, 'node-stalled', 1_000);
      const checked = await stalled.query(fleetStatements(fleet.schema).liveFences, [[fence.token], [fence.runtimeId]]);
      expect(checked.rows).toHaveLength(1);
      await expect.poll(async () => (await peer.listBusyRuntimeIds()).length, { timeout: 10_000, interval: 50 }).toBe(0);
      const refused = await peer.acquireLease({ runtimeId: 'rt-1', holderId: 'node-b', mode: 'exclusive', ttlMs: 60_000 });
      expect(refused).toStrictEqual({ granted: false, conflict: 'a commit under its previous lease is in flight' });
      await stalled.query('COMMIT');
    } finally {
      await stalled.end();
    }
    await granted(peer, 'node-b', 60_000);
  });
});
