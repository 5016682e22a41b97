import { describe, expect } from 'vitest';
import type { NewRuntimeEvent, RuntimeEvent, RuntimeStore } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { checkpointIdOf, checkpointRecord, sessionRecord, unreadable } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const event = (type: NewRuntimeEvent['type'], runtimeId: string | null, overrides: Partial<NewRuntimeEvent> = {}): NewRuntimeEvent => ({
  type,
  atMs: 1_764_000_000_000,
  runtimeId,
  checkpointId: null,
  data: {},
  ...overrides,
});

const withoutIds = (events: RuntimeEvent[]): NewRuntimeEvent[] => events.map(({ eventId: _, ...rest }) => rest);

/** Every event after `afterEventId`, read page by page as a stream's reader would. */
async function readAll(store: RuntimeStore, afterEventId = 0, limit = 3): Promise<RuntimeEvent[]> {
  const read: RuntimeEvent[] = [];
  let cursor = afterEventId;
  for (;;) {
    const page = await store.listEvents({ afterEventId: cursor, limit });
    read.push(...page);
    if (page.length < limit) return read;
    cursor = page.at(-1)!.eventId;
  }
}

/**
 * The event log: events are appended by the commit of the state they describe (all or none),
 * get increasing ids in commit order that are never reused, read back whole, filtered and paged
 * by id; pruning removes old events, never their ids.
 */
export function eventLogTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('event log', () => {
    const harness = useStoreHarness(resolved);

    test('an empty log has no events and last id 0', async () => {
      expect(await harness.store.listEvents({ afterEventId: 0, limit: 10 })).toStrictEqual([]);
      expect(await harness.store.lastEventId()).toBe(0);
    });

    test('events are appended with the commit of their state, in batch order, with increasing ids, and read back whole', async () => {
      const opened = event('runtime.opened', 'rt-1', { data: { provider: 'memory', conversation_id: 'c' } });
      const created = event('checkpoint.created', 'rt-1', { checkpointId: checkpointIdOf(1), data: { reused_backend_snapshot: false, nested: { n: [1, 'two', null] } } });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], events: [opened] });
      await harness.store.commit({ checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-1')], events: [created, event('runtime.paused', 'rt-1')] });
      const events = await harness.store.listEvents({ afterEventId: 0, limit: 10 });
      expect(withoutIds(events)).toStrictEqual([opened, created, event('runtime.paused', 'rt-1')]);
      const ids = events.map((read) => read.eventId);
      expect(ids[0]).toBeGreaterThan(0);
      expect([...ids].sort((a, b) => a - b)).toStrictEqual(ids);
      expect(new Set(ids).size).toBe(3);
      expect(await harness.store.lastEventId()).toBe(ids[2]);
    });

    test('a batch that fails appends none of its events', async () => {
      await harness.store.commit({ events: [event('runtime.opened', 'rt-1')] });
      const before = await harness.store.lastEventId();
      await expect(harness.store.commit({ events: [event('runtime.opened', 'rt-bad')], sessions: [unreadable(sessionRecord('rt-bad'), 'sessionState')] })).rejects.toThrow();
      await expect(harness.store.commit({ events: [event('runtime.opened', 'rt-2'), unreadable(event('runtime.closed', 'rt-2'), 'data')] })).rejects.toThrow();
      expect(await harness.store.lastEventId()).toBe(before);
      expect(await harness.store.listEvents({ afterEventId: before, limit: 10 })).toStrictEqual([]);
    });

    test('reads after an id, at most limit, oldest first: paging by the last id read sees every event once', async () => {
      for (let n = 0; n < 8; n += 1) await harness.store.commit({ events: [event('runtime.opened', `rt-${n}`)] });
      const all = await harness.store.listEvents({ afterEventId: 0, limit: 100 });
      expect(all).toHaveLength(8);
      expect(await readAll(harness.store)).toStrictEqual(all);
      expect(await harness.store.listEvents({ afterEventId: all[5]!.eventId, limit: 100 })).toStrictEqual(all.slice(6));
      expect(await harness.store.listEvents({ afterEventId: all[7]!.eventId, limit: 100 })).toStrictEqual([]);
    });

    test('filters by runtime and by types', async () => {
      await harness.store.commit({
        events: [event('runtime.opened', 'rt-a'), event('runtime.opened', 'rt-b'), event('runtime.paused', 'rt-a'), event('snapshot.deleted', null, { data: { reason: 'retention' } }), event('runtime.closed', 'rt-a')],
      });
      const ofA = await harness.store.listEvents({ afterEventId: 0, limit: 10, runtimeId: 'rt-a' });
      expect(ofA.map((read) => read.type)).toStrictEqual(['runtime.opened', 'runtime.paused', 'runtime.closed']);
      const closings = await harness.store.listEvents({ afterEventId: 0, limit: 10, types: ['runtime.closed', 'snapshot.deleted'] });
      expect(closings.map((read) => [read.type, read.runtimeId])).toStrictEqual([['snapshot.deleted', null], ['runtime.closed', 'rt-a']]);
      expect(await harness.store.listEvents({ afterEventId: 0, limit: 10, runtimeId: 'rt-b', types: ['runtime.closed'] })).toStrictEqual([]);
    });

    test('pruning removes events that happened before a time and never reuses their ids', async () => {
      await harness.store.commit({ events: [event('runtime.opened', 'rt-1', { atMs: 100 }), event('runtime.paused', 'rt-1', { atMs: 200 }), event('runtime.resumed', 'rt-1', { atMs: 300 })] });
      const last = await harness.store.lastEventId();
      expect(await harness.store.pruneEvents(300)).toBe(2);
      expect((await harness.store.listEvents({ afterEventId: 0, limit: 10 })).map((read) => read.type)).toStrictEqual(['runtime.resumed']);
      expect(await harness.store.pruneEvents(10_000)).toBe(1);
      expect(await harness.store.lastEventId()).toBe(last);
      await harness.store.commit({ events: [event('runtime.closed', 'rt-1')] });
      const [next] = await harness.store.listEvents({ afterEventId: 0, limit: 10 });
      expect(next!.eventId).toBeGreaterThan(last);
    });

    test('events survive a restart, and ids go on increasing after it', async () => {
      await harness.store.commit({ events: [event('runtime.opened', 'rt-1')] });
      const before = await harness.store.listEvents({ afterEventId: 0, limit: 10 });
      const store = await harness.restart();
      expect(await store.listEvents({ afterEventId: 0, limit: 10 })).toStrictEqual(before);
      await store.commit({ events: [event('runtime.closed', 'rt-1')] });
      expect((await store.listEvents({ afterEventId: before[0]!.eventId, limit: 10 })).map((read) => read.type)).toStrictEqual(['runtime.closed']);
    });

    test('a reader following the log while several nodes commit at once misses no event: ids become visible in order', async () => {
      const nodes = await harness.nodes(3);
      const writers = nodes.map(async (store, node) => {
        for (let n = 0; n < 20; n += 1) await store.commit({ events: [event('runtime.opened', `rt-${node}-${n}`), event('runtime.closed', `rt-${node}-${n}`)] });
      });
      const seen: RuntimeEvent[] = [];
      let done = false;
      const reader = (async () => {
        let cursor = 0;
        while (!done) {
          const page = await nodes[0]!.listEvents({ afterEventId: cursor, limit: 7 });
          seen.push(...page);
          if (page.length > 0) cursor = page.at(-1)!.eventId;
          else await new Promise((resolve) => setImmediate(resolve));
        }
        seen.push(...(await readAll(nodes[0]!, cursor)));
      })();
      await Promise.all(writers);
      done = true;
      await reader;
      const all = await readAll(nodes[0]!);
      expect(all).toHaveLength(120);
      expect(seen.map((read) => read.eventId)).toStrictEqual(all.map((read) => read.eventId));
      // The two events of one batch are adjacent: a batch's events are appended together.
      for (let index = 0; index < all.length; index += 2) expect(all[index + 1]!.runtimeId).toBe(all[index]!.runtimeId);
    });
  });
}
