import { describe, expect } from 'vitest';
import type { SessionRecord } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendBinding, sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const idsOf = (sessions: SessionRecord[]) => sessions.map((session) => session.runtimeId);

/**
 * The session lookups the service relies on: children by parent, sessions by the snapshot their
 * backend came from, sessions by backend id. Each follows a session as it is re-committed
 * (a binding that changes or goes moves it out of the old entry) and lists ids ascending.
 */
export function sessionIndexTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('session lookups', () => {
    const harness = useStoreHarness(resolved);

    test('listChildSessions lists the direct children of any status, by id, and not grandchildren', async () => {
      await harness.store.commit({
        sessions: [
          sessionRecord('root'),
          sessionRecord('root:checkout:b', { parentRuntimeId: 'root', status: 'closed' }),
          sessionRecord('root:checkout:a', { parentRuntimeId: 'root', status: 'paused' }),
          sessionRecord('root:checkout:c', { parentRuntimeId: 'root:checkout:a' }),
          sessionRecord('other'),
        ],
      });
      expect(idsOf(await harness.store.listChildSessions('root'))).toStrictEqual(['root:checkout:a', 'root:checkout:b']);
      expect(idsOf(await harness.store.listChildSessions('root:checkout:a'))).toStrictEqual(['root:checkout:c']);
      expect(await harness.store.listChildSessions('other')).toStrictEqual([]);
      expect(await harness.store.listChildSessions('unknown')).toStrictEqual([]);
    });

    test('listChildSessions returns whole records', async () => {
      const child = sessionRecord('child', { parentRuntimeId: 'root', metadata: { k: 'v' }, backend: backendBinding('bkd_1') });
      await harness.store.commit({ sessions: [sessionRecord('root'), child] });
      expect(await harness.store.listChildSessions('root')).toStrictEqual([child]);
    });

    test('listSessionsBySourceSnapshot lists the sessions whose binding came from that provider snapshot, any status, by id', async () => {
      const fromSnap = (id: string, providerId = 'memory', status: SessionRecord['status'] = 'idle') =>
        sessionRecord(id, { status, providerId, backend: backendBinding(`bkd_${id}`, { providerId, sourceSnapshotId: 'snap-1' }) });
      const b = fromSnap('rt-b', 'memory', 'failed');
      const a = fromSnap('rt-a');
      await harness.store.commit({
        sessions: [
          b,
          a,
          fromSnap('rt-other-provider', 'e2b'),
          sessionRecord('rt-unbound'),
          sessionRecord('rt-fresh', { backend: backendBinding('bkd_fresh') }),
        ],
      });
      expect(await harness.store.listSessionsBySourceSnapshot('memory', 'snap-1')).toStrictEqual([a, b]);
      expect(idsOf(await harness.store.listSessionsBySourceSnapshot('e2b', 'snap-1'))).toStrictEqual(['rt-other-provider']);
      expect(await harness.store.listSessionsBySourceSnapshot('memory', 'snap-unknown')).toStrictEqual([]);
    });

    test('listSessionsBySourceSnapshot follows a re-committed binding: a new source moves it, a cleared binding drops it', async () => {
      const bound = (id: string, sourceSnapshotId: string | null) =>
        sessionRecord(id, { backend: backendBinding(`bkd_${id}`, { sourceSnapshotId }) });
      await harness.store.commit({ sessions: [bound('rt-1', 'snap-1'), bound('rt-2', 'snap-1'), bound('rt-3', 'snap-1')] });
      expect(idsOf(await harness.store.listSessionsBySourceSnapshot('memory', 'snap-1'))).toStrictEqual(['rt-1', 'rt-2', 'rt-3']);
      await harness.store.commit({
        sessions: [
          bound('rt-1', 'snap-2'),
          { ...bound('rt-2', null), status: 'paused', backend: null },
          bound('rt-3', null),
        ],
      });
      expect(await harness.store.listSessionsBySourceSnapshot('memory', 'snap-1')).toStrictEqual([]);
      expect(idsOf(await harness.store.listSessionsBySourceSnapshot('memory', 'snap-2'))).toStrictEqual(['rt-1']);
    });

    test('listSessionsByBackend lists every session sharing a backend, by id', async () => {
      const shared = backendBinding('bkd_shared');
      await harness.store.commit({
        sessions: [
          sessionRecord('rt-2', { backend: shared }),
          sessionRecord('rt-1', { backend: shared, status: 'failed' }),
          sessionRecord('rt-3', { backend: backendBinding('bkd_own') }),
          sessionRecord('rt-4'),
        ],
      });
      expect(idsOf(await harness.store.listSessionsByBackend('bkd_shared'))).toStrictEqual(['rt-1', 'rt-2']);
      expect(idsOf(await harness.store.listSessionsByBackend('bkd_own'))).toStrictEqual(['rt-3']);
      expect(await harness.store.listSessionsByBackend('bkd_unknown')).toStrictEqual([]);
    });

    test('listSessionsByBackend follows a re-committed binding: moved to the new backend, gone from the old one, dropped when cleared', async () => {
      const shared = backendBinding('bkd_shared');
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { backend: shared }), sessionRecord('rt-2', { backend: shared })] });
      expect(idsOf(await harness.store.listSessionsByBackend('bkd_shared'))).toStrictEqual(['rt-1', 'rt-2']);
      const moved = sessionRecord('rt-1', { backend: backendBinding('bkd_new') });
      await harness.store.commit({ sessions: [moved] });
      expect(idsOf(await harness.store.listSessionsByBackend('bkd_shared'))).toStrictEqual(['rt-2']);
      expect(await harness.store.listSessionsByBackend('bkd_new')).toStrictEqual([moved]);
      await harness.store.commit({ sessions: [sessionRecord('rt-2', { status: 'closed', backend: null })] });
      expect(await harness.store.listSessionsByBackend('bkd_shared')).toStrictEqual([]);
    });

    test('listChildSessions follows a re-committed parent link', async () => {
      await harness.store.commit({
        sessions: [sessionRecord('p1'), sessionRecord('p2'), sessionRecord('child', { parentRuntimeId: 'p1' })],
      });
      expect(idsOf(await harness.store.listChildSessions('p1'))).toStrictEqual(['child']);
      await harness.store.commit({ sessions: [sessionRecord('child', { parentRuntimeId: 'p2' })] });
      expect(await harness.store.listChildSessions('p1')).toStrictEqual([]);
      expect(idsOf(await harness.store.listChildSessions('p2'))).toStrictEqual(['child']);
    });
  });
}
