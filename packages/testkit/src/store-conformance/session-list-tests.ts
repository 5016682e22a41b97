import { describe, expect } from 'vitest';
import type { RuntimeStore, SessionListQuery, SessionRecord, StoredRuntimeStatus } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendBinding, runtimeIdOf, sessionRecord, shuffled } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';
import { walkPages } from './page-walker';

const STATUSES: readonly StoredRuntimeStatus[] = ['idle', 'paused', 'failed', 'closed'];

/** Commits `sessions` in batches of 50, in the given order. */
async function commitAll(store: RuntimeStore, sessions: SessionRecord[]): Promise<void> {
  for (let start = 0; start < sessions.length; start += 50) await store.commit({ sessions: sessions.slice(start, start + 50) });
}

/** Every runtime id listSessions yields for `query`, page by page. */
const walk = (store: RuntimeStore, query: Omit<SessionListQuery, 'cursor'>) =>
  walkPages((cursor) => store.listSessions({ ...query, ...(cursor === undefined ? {} : { cursor }) }), query.limit, (item) => item.runtimeId);

/**
 * listSessions (runtimes by id ascending, status and backend-provider filters, limit/cursor paging with no duplicates
 * or gaps and nextCursor null on the last page) and countSessionsByStatus.
 */
export function sessionListTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('listing sessions', () => {
    const harness = useStoreHarness(resolved);
    const ids = Array.from({ length: 250 }, (_, index) => runtimeIdOf(index));
    const statusOf = (index: number) => STATUSES[index % STATUSES.length]!;
    const seed250 = () => commitAll(harness.store, shuffled(ids.map((id, index) => sessionRecord(id, { status: statusOf(index) }))));

    test('an empty store lists no runtimes, with nextCursor null', async () => {
      expect(await harness.store.listSessions({ limit: 10 })).toStrictEqual({ items: [], nextCursor: null });
      expect(await harness.store.listSessions({ limit: 10, status: 'idle' })).toStrictEqual({ items: [], nextCursor: null });
    });

    test('runtimes come back in ascending id order (code-unit order) whatever the commit order', async () => {
      const mixed = ['b', 'A', 'a', 'a.1', 'a-1', 'a_1', 'a:checkout:' + '0'.repeat(32), 'Z9', '0', '9z', 'aa'];
      await commitAll(harness.store, shuffled(mixed.map((id) => sessionRecord(id))));
      const page = await harness.store.listSessions({ limit: 100 });
      expect(page.items.map((item) => item.runtimeId)).toStrictEqual([...mixed].sort());
      expect(page.nextCursor).toBeNull();
    });

    test('paging 250 runtimes with limit 7 visits each exactly once, in order, ending with nextCursor null', async () => {
      await seed250();
      const { ids: seen, pages } = await walk(harness.store, { limit: 7 });
      expect(seen).toStrictEqual(ids);
      expect(pages).toBe(Math.ceil(250 / 7));
    });

    test('a last page that ends exactly at the last runtime has nextCursor null (250 in pages of 50, then 250, then 249)', async () => {
      await seed250();
      expect(await walk(harness.store, { limit: 50 })).toStrictEqual({ ids, pages: 5 });
      expect(await walk(harness.store, { limit: 250 })).toStrictEqual({ ids, pages: 1 });
      expect(await walk(harness.store, { limit: 249 })).toStrictEqual({ ids, pages: 2 });
      expect(await walk(harness.store, { limit: 1_000 })).toStrictEqual({ ids, pages: 1 });
    });

    test('the status filter lists only that status, in id order, and pages by the same rules', async () => {
      await seed250();
      for (const status of STATUSES) {
        const expected = ids.filter((_, index) => statusOf(index) === status);
        const { ids: seen } = await walk(harness.store, { limit: 9, status });
        expect(seen, status).toStrictEqual(expected);
        const page = await harness.store.listSessions({ limit: 1_000, status });
        expect(page.items.every((item) => item.status === status)).toBe(true);
      }
    });

    test('a cursor continues strictly after it, also when it names no stored runtime', async () => {
      await seed250();
      const afterExisting = await harness.store.listSessions({ limit: 3, cursor: runtimeIdOf(100) });
      expect(afterExisting.items.map((item) => item.runtimeId)).toStrictEqual([runtimeIdOf(101), runtimeIdOf(102), runtimeIdOf(103)]);
      const between = await harness.store.listSessions({ limit: 2, cursor: `${runtimeIdOf(100)}-between` });
      expect(between.items.map((item) => item.runtimeId)).toStrictEqual([runtimeIdOf(101), runtimeIdOf(102)]);
      expect(await harness.store.listSessions({ limit: 5, cursor: runtimeIdOf(249) })).toStrictEqual({ items: [], nextCursor: null });
    });

    test('the backend provider filter lists only runtimes bound to that provider, alone or with a status, and pages by the same rules', async () => {
      // Index % 3: bound to "alpha", bound to "beta", or no backend at all.
      const providerOf = (index: number) => (['alpha', 'beta', null] as const)[index % 3]!;
      const records = ids.map((id, index) => {
        const providerId = providerOf(index);
        return sessionRecord(id, {
          status: statusOf(index),
          // The runtime's own provider differs from its backend's: the filter reads the binding.
          providerId: 'other',
          backend: providerId === null ? null : backendBinding(`bkd-${id}`, { providerId }),
        });
      });
      await commitAll(harness.store, shuffled(records));
      for (const providerId of ['alpha', 'beta']) {
        const bound = ids.filter((_, index) => providerOf(index) === providerId);
        expect((await walk(harness.store, { limit: 8, backendProviderId: providerId })).ids, providerId).toStrictEqual(bound);
        for (const status of STATUSES) {
          const expected = ids.filter((_, index) => providerOf(index) === providerId && statusOf(index) === status);
          const { ids: seen } = await walk(harness.store, { limit: 4, status, backendProviderId: providerId });
          expect(seen, `${providerId} ${status}`).toStrictEqual(expected);
        }
      }
      expect(await harness.store.listSessions({ limit: 10, backendProviderId: 'other' })).toStrictEqual({ items: [], nextCursor: null });
    });

    test('a provider-filtered page follows a rebinding on re-commit', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { backend: backendBinding('bkd-1', { providerId: 'alpha' }) })] });
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { backend: backendBinding('bkd-2', { providerId: 'beta' }) })] });
      const alpha = await harness.store.listSessions({ limit: 10, backendProviderId: 'alpha' });
      const beta = await harness.store.listSessions({ limit: 10, backendProviderId: 'beta', status: 'idle' });
      expect(alpha.items).toStrictEqual([]);
      expect(beta.items.map((item) => item.backend?.backendId)).toStrictEqual(['bkd-2']);
    });

    test('a status-filtered page follows a status change on re-commit', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')] });
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { status: 'paused' })] });
      const idle = await harness.store.listSessions({ limit: 10, status: 'idle' });
      const paused = await harness.store.listSessions({ limit: 10, status: 'paused' });
      expect(idle.items.map((item) => item.runtimeId)).toStrictEqual(['rt-2']);
      expect(paused.items.map((item) => item.runtimeId)).toStrictEqual(['rt-1']);
    });

    test('countSessionsByStatus counts every stored status, zero for absent ones', async () => {
      expect(await harness.store.countSessionsByStatus()).toStrictEqual({ idle: 0, paused: 0, failed: 0, closed: 0 });
      await seed250();
      expect(await harness.store.countSessionsByStatus()).toStrictEqual({ idle: 63, paused: 63, failed: 62, closed: 62 });
    });

    test('countSessionsByStatus follows a status change and never counts a re-committed runtime twice', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')] });
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { status: 'closed' })] });
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { status: 'closed' })] });
      expect(await harness.store.countSessionsByStatus()).toStrictEqual({ idle: 1, paused: 0, failed: 0, closed: 1 });
    });

    test('countSessionsByHomeNode counts the runtimes not closed per home node, without those that have none', async () => {
      expect(await harness.store.countSessionsByHomeNode()).toStrictEqual({});
      await harness.store.commit({
        sessions: [
          sessionRecord('rt-1', { homeNodeId: 'node-a' }),
          sessionRecord('rt-2', { homeNodeId: 'node-a', status: 'paused' }),
          sessionRecord('rt-3', { homeNodeId: 'node-a', status: 'closed' }),
          sessionRecord('rt-4', { homeNodeId: 'node-b', status: 'failed' }),
          sessionRecord('rt-5'),
        ],
      });
      expect(await harness.store.countSessionsByHomeNode()).toStrictEqual({ 'node-a': 2, 'node-b': 1 });
      await harness.store.commit({ sessions: [sessionRecord('rt-4', { homeNodeId: 'node-b', status: 'closed' })] });
      expect(await harness.store.countSessionsByHomeNode()).toStrictEqual({ 'node-a': 2 });
    });
  });
}
