import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../api/api-types';
import { matchesEventFilter, normalizeTypes, prependEvents, summarizeEventData } from './event-feed';

function event(eventId: number, type = 'runtime.opened', runtimeId: string | null = 'r1'): RuntimeEvent {
  return { event_id: eventId, type, at_ms: eventId, runtime_id: runtimeId, checkpoint_id: null, data: {} };
}

describe('event feed', () => {
  it('normalises a typed list of event types', () => {
    expect(normalizeTypes(' runtime.paused, checkpoint.created ,,')).toBe('runtime.paused,checkpoint.created');
    expect(normalizeTypes('  ')).toBe('');
  });

  it('filters by type and runtime', () => {
    expect(matchesEventFilter(event(1, 'runtime.paused'), 'runtime.paused,runtime.resumed', '')).toBe(true);
    expect(matchesEventFilter(event(1, 'checkpoint.created'), 'runtime.paused', '')).toBe(false);
    expect(matchesEventFilter(event(1, 'runtime.paused', 'r2'), '', 'r1')).toBe(false);
    expect(matchesEventFilter(event(1), '', '')).toBe(true);
  });

  it('puts the newest on top and caps the feed', () => {
    const feed = prependEvents([event(2), event(1)], [event(3), event(4)], 3);
    expect(feed.map((item) => item.event_id)).toEqual([4, 3, 2]);
  });

  it('summarises data compactly', () => {
    expect(summarizeEventData({ reason: 'manual', reasons: ['unused'] })).toBe('reason=manual reasons=["unused"]');
    expect(summarizeEventData({ text: 'x'.repeat(200) }, 20)).toHaveLength(20);
  });
});
