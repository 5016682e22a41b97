import type { ApiClient } from '../api/api-client';
import type { RuntimeEvent } from '../api/api-types';
import { eventPage } from '../api/runtimectl-api';

const PAGE_LIMIT = 500;
/** Bounds the look-back on a long log with a rare filter: at most this many pages are read. */
const MAX_PAGES = 40;

/**
 * The last `count` events matching the filters, oldest first, and the id to stream after. The
 * log is paged forwards only (`after`), so this starts a window back from its end and widens
 * the window until it holds enough matches or reaches the start.
 */
export async function loadRecentEvents(
  client: ApiClient,
  filters: { types: string; runtimeId: string },
  count: number,
  signal: AbortSignal,
): Promise<{ events: RuntimeEvent[]; lastEventId: number }> {
  const { last_event_id: newestId } = await eventPage(client, { limit: 1 }, signal);
  let window = count;
  let pagesRead = 0;
  for (;;) {
    const start = Math.max(0, newestId - window);
    const matched: RuntimeEvent[] = [];
    let after = start;
    let lastEventId = start;
    for (;;) {
      const page = await eventPage(client, { after, limit: PAGE_LIMIT, types: filters.types || undefined, runtimeId: filters.runtimeId || undefined }, signal);
      pagesRead += 1;
      matched.push(...page.events);
      if (matched.length > count) matched.splice(0, matched.length - count);
      lastEventId = Math.max(page.last_event_id, page.events.at(-1)?.event_id ?? 0);
      if (page.events.length < PAGE_LIMIT || pagesRead >= MAX_PAGES) break;
      after = page.events.at(-1)?.event_id ?? lastEventId;
    }
    if (matched.length >= count || start === 0 || pagesRead >= MAX_PAGES) return { events: matched, lastEventId };
    window *= 10;
  }
}
