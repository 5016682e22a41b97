import { describe, expect } from 'vitest';
import type { CheckpointRecord } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendRef, checkpointIdOf, checkpointRecord, sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';
import { walkPages } from './page-walker';

/**
 * What snapshot retention needs of a store: a checkpoint's marks (pinned, last used) set only
 * through `checkpointMarks` and kept by every later upsert of the record, a runtime's own
 * policy round-tripped, and every checkpoint whose snapshot still exists listed by id, paged.
 */
export function retentionFieldTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('retention fields', () => {
    const harness = useStoreHarness(resolved);
    const cp = checkpointIdOf(1);

    async function seedOne(): Promise<CheckpointRecord> {
      const record = checkpointRecord(cp, 'rt-1', { backendRef: backendRef('snap-1') });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [record] });
      return record;
    }

    test('a pin and a use set through checkpointMarks read back; a use never moves the last use back', async () => {
      await seedOne();
      expect(await harness.store.getCheckpoint(cp)).not.toHaveProperty('pinned');
      await harness.store.commit({ checkpointMarks: [{ checkpointId: cp, pinned: true, usedAtMs: 2_000 }] });
      expect(await harness.store.getCheckpoint(cp)).toMatchObject({ pinned: true, lastUsedAtMs: 2_000 });
      await harness.store.commit({ checkpointMarks: [{ checkpointId: cp, usedAtMs: 1_000 }] });
      expect((await harness.store.getCheckpoint(cp))?.lastUsedAtMs).toBe(2_000);
      await harness.store.commit({ checkpointMarks: [{ checkpointId: cp, pinned: false }] });
      expect(await harness.store.getCheckpoint(cp)).not.toHaveProperty('pinned');
    });

    test('an upsert of the checkpoint record (read before the mark) never changes its marks', async () => {
      const stale = await seedOne();
      await harness.store.commit({ checkpointMarks: [{ checkpointId: cp, pinned: true, usedAtMs: 5 }] });
      const cleared = { ...stale, pinned: false, lastUsedAtMs: null, backendRef: backendRef(null, { snapshotDeletedAtMs: 9 }) };
      await harness.store.commit({ checkpoints: [cleared] });
      expect(await harness.store.getCheckpoint(cp)).toMatchObject({ pinned: true, lastUsedAtMs: 5, backendRef: { providerSnapshotId: null } });
    });

    test("a runtime's own retention settings and its TTL round-trip; absent read back as null", async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { retention: { keepLast: 3, expireUnusedAfterMs: null }, expiresAtMs: 1_900_000_000_000 }), sessionRecord('rt-2')] });
      expect(await harness.store.getSession('rt-1')).toMatchObject({ retention: { keepLast: 3, expireUnusedAfterMs: null }, expiresAtMs: 1_900_000_000_000 });
      expect((await harness.store.getSession('rt-2'))?.retention ?? null).toBeNull();
      expect((await harness.store.getSession('rt-2'))?.expiresAtMs ?? null).toBeNull();
    });

    test("a runtime's own restore verification round-trips, false included; absent reads back as null", async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-on', { verify: true }), sessionRecord('rt-off', { verify: false }), sessionRecord('rt-default')] });
      expect((await harness.store.getSession('rt-on'))?.verify).toBe(true);
      expect((await harness.store.getSession('rt-off'))?.verify).toBe(false);
      expect((await harness.store.getSession('rt-default'))?.verify ?? null).toBeNull();
    });

    test('listSnapshottedCheckpoints pages every checkpoint whose snapshot exists, by id, across runtimes; a cleared one drops out', async () => {
      const records = Array.from({ length: 23 }, (_, index) =>
        checkpointRecord(checkpointIdOf(index + 1), index % 2 ? 'rt-1' : 'rt-2', { backendRef: backendRef(index % 3 === 0 ? null : `snap-${index}`) }),
      );
      await harness.store.commit({ sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')], checkpoints: records });
      const expected = records.filter((record) => record.backendRef?.providerSnapshotId).map((record) => record.checkpointId);
      const walk = (limit: number) =>
        walkPages((cursor) => harness.store.listSnapshottedCheckpoints({ limit, ...(cursor === undefined ? {} : { cursor }) }), limit, (item) => item.checkpointId);
      expect((await walk(4)).ids).toStrictEqual(expected);
      const [first] = records.filter((record) => record.backendRef?.providerSnapshotId);
      await harness.store.commit({ checkpoints: [{ ...first!, backendRef: backendRef(null) }] });
      expect((await walk(100)).ids).toStrictEqual(expected.slice(1));
    });

    test('listSnapshottedCheckpoints answers the facts a retention pass plans on, marks included, and nothing else', async () => {
      await seedOne();
      await harness.store.commit({ checkpointMarks: [{ checkpointId: cp, pinned: true, usedAtMs: 7 }] });
      const { items } = await harness.store.listSnapshottedCheckpoints({ limit: 10 });
      expect(items).toStrictEqual([
        { checkpointId: cp, runtimeId: 'rt-1', createdAtMs: checkpointRecord(cp, 'rt-1').createdAtMs, pinned: true, lastUsedAtMs: 7, backendRef: { providerId: 'memory', providerSnapshotId: 'snap-1' } },
      ]);
    });
  });
}
