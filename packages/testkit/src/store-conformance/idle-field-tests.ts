import { describe, expect } from 'vitest';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

/**
 * What idle auto-pause needs of a store: a runtime's own idle settings round-tripped, and its
 * last activity set only through `sessionMarks` (one batched write per policy pass), moved
 * forward only, and kept by every later upsert of the record.
 */
export function idleFieldTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('idle fields', () => {
    const harness = useStoreHarness(resolved);

    test("a runtime's own idle pause and auto-resume settings round-trip; absent read back as null", async () => {
      await harness.store.commit({
        sessions: [sessionRecord('rt-1', { idlePauseAfterMs: 60_000, autoResume: true }), sessionRecord('rt-2', { idlePauseAfterMs: 0, autoResume: false }), sessionRecord('rt-3')],
      });
      expect(await harness.store.getSession('rt-1')).toMatchObject({ idlePauseAfterMs: 60_000, autoResume: true });
      expect(await harness.store.getSession('rt-2')).toMatchObject({ idlePauseAfterMs: 0, autoResume: false });
      const absent = await harness.store.getSession('rt-3');
      expect([absent?.idlePauseAfterMs ?? null, absent?.autoResume ?? null, absent?.lastActiveAtMs ?? null]).toEqual([null, null, null]);
    });

    test('sessionMarks set the last activity of many runtimes in one commit, only ever forward; unknown runtimes are ignored', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')] });
      await harness.store.commit({ sessionMarks: [{ runtimeId: 'rt-1', activeAtMs: 2_000 }, { runtimeId: 'rt-2', activeAtMs: 3_000 }, { runtimeId: 'rt-gone', activeAtMs: 1 }] });
      await harness.store.commit({ sessionMarks: [{ runtimeId: 'rt-1', activeAtMs: 1_000 }] });
      expect((await harness.store.getSession('rt-1'))?.lastActiveAtMs).toBe(2_000);
      expect((await harness.store.getSession('rt-2'))?.lastActiveAtMs).toBe(3_000);
      expect(await harness.store.getSession('rt-gone')).toBeUndefined();
    });

    test('an upsert of the session record (read before the mark) never changes its last activity', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1')] });
      const stale = await harness.store.getSession('rt-1');
      await harness.store.commit({ sessionMarks: [{ runtimeId: 'rt-1', activeAtMs: 5_000 }] });
      await harness.store.commit({ sessions: [{ ...stale!, lastActiveAtMs: null, metadata: { touched: true } }] });
      expect(await harness.store.getSession('rt-1')).toMatchObject({ lastActiveAtMs: 5_000, metadata: { touched: true } });
    });
  });
}
