import { describe, expect } from 'vitest';
import type { CheckpointRecord, RuntimeStore } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendRef, checkpointIdOf, checkpointRecord, sessionRecord, shuffled } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';
import { walkPages } from './page-walker';

const idsOf = (checkpoints: CheckpointRecord[]) => checkpoints.map((checkpoint) => checkpoint.checkpointId);
const sortPairs = (pairs: Array<{ providerId: string; snapshotId: string }>) =>
  [...pairs].sort((a, b) => `${a.providerId}/${a.snapshotId}`.localeCompare(`${b.providerId}/${b.snapshotId}`));

/** Every checkpoint id listCheckpoints yields for the runtime, page by page. */
const walk = (store: RuntimeStore, runtimeId: string, limit: number) =>
  walkPages((cursor) => store.listCheckpoints(runtimeId, { limit, ...(cursor === undefined ? {} : { cursor }) }), limit, (item) => item.checkpointId);

/**
 * listCheckpoints (a runtime's checkpoints newest first = id descending, paged),
 * listCheckpointsBySnapshot (shared snapshots; a cleared ref drops out) and
 * listSnapshotIdsOfRuntime (distinct, without cleared refs).
 */
export function checkpointListTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('listing checkpoints', () => {
    const harness = useStoreHarness(resolved);

    /** Checkpoints 1..count of rt-1 (committed shuffled, in batches) interleaved with rt-2's. */
    async function seed(count: number): Promise<string[]> {
      const records = Array.from({ length: count }, (_, index) =>
        checkpointRecord(checkpointIdOf(2 * index + 1), index % 5 === 0 ? 'rt-2' : 'rt-1'),
      );
      await harness.store.commit({ sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')] });
      const order = shuffled(records);
      for (let start = 0; start < order.length; start += 40) await harness.store.commit({ checkpoints: order.slice(start, start + 40) });
      return idsOf(records.filter((record) => record.runtimeId === 'rt-1')).reverse();
    }

    test("a runtime's checkpoints come back newest first (id descending), only its own, whatever the commit order", async () => {
      const expected = await seed(30);
      const page = await harness.store.listCheckpoints('rt-1', { limit: 100 });
      expect(idsOf(page.items)).toStrictEqual(expected);
      expect(page.nextCursor).toBeNull();
    });

    test('paging 200 checkpoints with limit 7 visits each exactly once, newest first, ending with nextCursor null', async () => {
      const expected = await seed(250);
      expect(expected).toHaveLength(200);
      expect(await walk(harness.store, 'rt-1', 7)).toStrictEqual({ ids: expected, pages: Math.ceil(200 / 7) });
      expect(await walk(harness.store, 'rt-1', 50)).toStrictEqual({ ids: expected, pages: 4 });
      expect(await walk(harness.store, 'rt-1', 200)).toStrictEqual({ ids: expected, pages: 1 });
    });

    test('a checkpoint cursor continues strictly after it (older ids), also when it names no checkpoint', async () => {
      const expected = await seed(20);
      const page = await harness.store.listCheckpoints('rt-1', { limit: 2, cursor: expected[3]! });
      expect(idsOf(page.items)).toStrictEqual(expected.slice(4, 6));
      const between = await harness.store.listCheckpoints('rt-1', { limit: 2, cursor: checkpointIdOf(16) });
      expect(idsOf(between.items)).toStrictEqual([checkpointIdOf(15), checkpointIdOf(13)]);
    });

    test('a runtime without checkpoints, or unknown, lists an empty page', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-empty')] });
      expect(await harness.store.listCheckpoints('rt-empty', { limit: 10 })).toStrictEqual({ items: [], nextCursor: null });
      expect(await harness.store.listCheckpoints('rt-unknown', { limit: 10 })).toStrictEqual({ items: [], nextCursor: null });
    });

    test('listCheckpointsBySnapshot lists every checkpoint sharing the snapshot across runtimes, keyed by provider and snapshot id', async () => {
      const shared = (n: number, runtimeId: string, providerId = 'memory') =>
        checkpointRecord(checkpointIdOf(n), runtimeId, { backendRef: backendRef('snap-shared', { providerId }) });
      const records = [shared(3, 'rt-2'), shared(1, 'rt-1'), shared(2, 'rt-1'), shared(4, 'rt-1', 'e2b')];
      await harness.store.commit({
        sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')],
        checkpoints: [...records, checkpointRecord(checkpointIdOf(5), 'rt-1', { backendRef: backendRef('snap-other') })],
      });
      const found = await harness.store.listCheckpointsBySnapshot('memory', 'snap-shared');
      expect(idsOf(found)).toStrictEqual([checkpointIdOf(1), checkpointIdOf(2), checkpointIdOf(3)]);
      expect(found[0]).toStrictEqual(records[1]);
      expect(idsOf(await harness.store.listCheckpointsBySnapshot('e2b', 'snap-shared'))).toStrictEqual([checkpointIdOf(4)]);
      expect(await harness.store.listCheckpointsBySnapshot('memory', 'snap-unknown')).toStrictEqual([]);
    });

    test('a ref whose providerSnapshotId is cleared drops out of listCheckpointsBySnapshot; a re-pointed ref moves', async () => {
      const withRef = (n: number, snapshotId: string | null) =>
        checkpointRecord(checkpointIdOf(n), 'rt-1', { backendRef: backendRef(snapshotId, { refId: `bcp_${n}` }) });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [withRef(1, 'snap-1'), withRef(2, 'snap-1')] });
      expect(idsOf(await harness.store.listCheckpointsBySnapshot('memory', 'snap-1'))).toStrictEqual([checkpointIdOf(1), checkpointIdOf(2)]);
      const cleared = { ...withRef(1, null), backendRef: { ...withRef(1, null).backendRef!, snapshotDeletedAtMs: 1_764_000_000_900 } };
      await harness.store.commit({ checkpoints: [cleared, withRef(2, 'snap-2')] });
      expect(await harness.store.listCheckpointsBySnapshot('memory', 'snap-1')).toStrictEqual([]);
      expect(idsOf(await harness.store.listCheckpointsBySnapshot('memory', 'snap-2'))).toStrictEqual([checkpointIdOf(2)]);
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(cleared);
    });

    test('listSnapshotIdsOfRuntime lists each provider snapshot once, however many checkpoints share it', async () => {
      const ref = (n: number, snapshotId: string | null, providerId = 'memory') =>
        checkpointRecord(checkpointIdOf(n), 'rt-1', { backendRef: backendRef(snapshotId, { providerId }) });
      await harness.store.commit({
        sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')],
        checkpoints: [
          ref(1, 'snap-a'),
          ref(2, 'snap-a'),
          ref(3, 'snap-b'),
          ref(4, 'snap-a'),
          ref(5, 'snap-a', 'e2b'),
          ref(6, null, 'local'),
          checkpointRecord(checkpointIdOf(7), 'rt-1'),
          checkpointRecord(checkpointIdOf(8), 'rt-2', { backendRef: backendRef('snap-c') }),
        ],
      });
      expect(sortPairs(await harness.store.listSnapshotIdsOfRuntime('rt-1'))).toStrictEqual([
        { providerId: 'e2b', snapshotId: 'snap-a' },
        { providerId: 'memory', snapshotId: 'snap-a' },
        { providerId: 'memory', snapshotId: 'snap-b' },
      ]);
      expect(await harness.store.listSnapshotIdsOfRuntime('rt-unknown')).toStrictEqual([]);
    });

    test('listSnapshotIdsOfRuntime leaves out refs whose snapshot was cleared', async () => {
      const ref = (n: number, snapshotId: string | null, deletedAtMs: number | null = null) =>
        checkpointRecord(checkpointIdOf(n), 'rt-1', { backendRef: backendRef(snapshotId, { snapshotDeletedAtMs: deletedAtMs }) });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [ref(1, 'snap-a'), ref(2, 'snap-a'), ref(3, 'snap-b')] });
      expect(await harness.store.listSnapshotIdsOfRuntime('rt-1')).toHaveLength(2);
      await harness.store.commit({ checkpoints: [ref(1, null, 1), ref(2, null, 1)] });
      expect(await harness.store.listSnapshotIdsOfRuntime('rt-1')).toStrictEqual([{ providerId: 'memory', snapshotId: 'snap-b' }]);
    });
  });
}
