import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/api-client';
import type { RuntimeEvent } from '../api/api-types';
import { loadRecentEvents } from './load-recent-events';

/** A fake daemon log of `total` events; every third is a checkpoint.created. */
function fakeClient(total: number): ApiClient & { calls: number } {
  const log: RuntimeEvent[] = Array.from({ length: total }, (_, index) => ({
    event_id: index + 1,
    type: (index + 1) % 3 === 0 ? 'checkpoint.created' : 'runtime.opened',
    at_ms: index,
    runtime_id: 'r',
    checkpoint_id: null,
    data: {},
  }));
  const client = {
    calls: 0,
    async get<T>(_path: string, query: Record<string, unknown> = {}): Promise<T> {
      client.calls += 1;
      const after = Number(query.after ?? 0);
      const limit = Number(query.limit ?? 100);
      const types = typeof query.types === 'string' ? query.types.split(',') : null;
      const events = log.filter((event) => event.event_id > after && (!types || types.includes(event.type))).slice(0, limit);
      return { events, last_event_id: total } as T;
    },
    post: async () => {
      throw new Error('unused');
    },
    open: async () => {
      throw new Error('unused');
    },
  };
  return client as ApiClient & { calls: number };
}

describe('loadRecentEvents', () => {
  it('returns the newest events without reading the whole log', async () => {
    const client = fakeClient(100_000);
    const { events, lastEventId } = await loadRecentEvents(client, { types: '', runtimeId: '' }, 100, new AbortController().signal);
    expect(events.map((event) => event.event_id)).toEqual(Array.from({ length: 100 }, (_, index) => 99_901 + index));
    expect(lastEventId).toBe(100_000);
    expect(client.calls).toBeLessThan(5);
  });

  it('widens the window until enough events match the filter', async () => {
    const client = fakeClient(5_000);
    const { events } = await loadRecentEvents(client, { types: 'checkpoint.created', runtimeId: '' }, 100, new AbortController().signal);
    expect(events).toHaveLength(100);
    expect(events.at(-1)?.event_id).toBe(4_998);
    expect(events.every((event) => event.type === 'checkpoint.created')).toBe(true);
  });

  it('returns what there is on a short log', async () => {
    const { events } = await loadRecentEvents(fakeClient(7), { types: '', runtimeId: '' }, 100, new AbortController().signal);
    expect(events).toHaveLength(7);
  });
});
