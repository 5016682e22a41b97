import type { RuntimeEvent } from '../api/api-types';

/** The most events kept in the feed's DOM: older ones fall off the bottom. */
export const FEED_CAPACITY = 1_000;

/** "runtime.paused, checkpoint.created ,," → "runtime.paused,checkpoint.created" (the API's `types`). */
export function normalizeTypes(text: string): string {
  return text
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== '')
    .join(',');
}

/** Whether an event passes the feed's filters (the daemon filters too; this guards a stream opened before a change). */
export function matchesEventFilter(event: RuntimeEvent, types: string, runtimeId: string): boolean {
  const wanted = types ? types.split(',') : [];
  if (wanted.length > 0 && !wanted.includes(event.type)) return false;
  return !runtimeId || event.runtime_id === runtimeId;
}

/** Newest on top, capped: `arrived` is oldest first, as the API sends events. */
export function prependEvents(feed: RuntimeEvent[], arrived: RuntimeEvent[], capacity = FEED_CAPACITY): RuntimeEvent[] {
  if (arrived.length === 0) return feed;
  return [...arrived.slice().reverse(), ...feed].slice(0, capacity);
}

/** A one-line account of an event's data: `key=value` pairs, long values cut. */
export function summarizeEventData(data: Record<string, unknown>, maxLength = 120): string {
  const text = Object.entries(data)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
