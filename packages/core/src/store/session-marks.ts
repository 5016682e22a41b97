import type { SessionMark, SessionRecord } from './records';

/**
 * `incoming` with the last activity the store holds for it (`previous`'s), never its own: an
 * upsert does not change it. Frozen like the memory store's records (`incoming` itself when it
 * already agrees).
 */
export function withActivityOf(incoming: SessionRecord, previous: SessionRecord | undefined): SessionRecord {
  const held = previous?.lastActiveAtMs ?? null;
  if ((incoming.lastActiveAtMs ?? null) === held && (held !== null || !('lastActiveAtMs' in incoming))) return incoming;
  const { lastActiveAtMs: _own, ...record } = incoming;
  return Object.freeze(held !== null ? { ...record, lastActiveAtMs: held } : record);
}

/** `record` with `mark` applied: its last activity moved forward (never back). */
export function markedSession(record: SessionRecord, mark: SessionMark): SessionRecord {
  return { ...record, lastActiveAtMs: Math.max(record.lastActiveAtMs ?? -Infinity, mark.activeAtMs) };
}

/** One mark per runtime, its latest: what a single set-based UPDATE of a batch's marks needs (it applies one row per runtime). */
export function latestMarks(marks: readonly SessionMark[]): SessionMark[] {
  const latest = new Map<string, number>();
  for (const { runtimeId, activeAtMs } of marks) latest.set(runtimeId, Math.max(latest.get(runtimeId) ?? -Infinity, activeAtMs));
  return [...latest].map(([runtimeId, activeAtMs]) => ({ runtimeId, activeAtMs }));
}
