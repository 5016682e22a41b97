import type { CheckpointMark, CheckpointRecord } from './records';

/** `incoming` with the marks the store holds for it (`previous`'s), never its own: an upsert does not change marks. */
export function withMarksOf(incoming: CheckpointRecord, previous: CheckpointRecord | undefined): CheckpointRecord {
  const { pinned: _pinned, lastUsedAtMs: _lastUsed, ...record } = incoming;
  return {
    ...record,
    ...(previous?.pinned ? { pinned: true } : {}),
    ...(previous?.lastUsedAtMs != null ? { lastUsedAtMs: previous.lastUsedAtMs } : {}),
  };
}

/** `record` with `mark` applied: a pin set or cleared, the last use moved forward (never back). */
export function markedCheckpoint(record: CheckpointRecord, mark: CheckpointMark): CheckpointRecord {
  const pinned = mark.pinned ?? record.pinned ?? false;
  const lastUsedAtMs = Math.max(record.lastUsedAtMs ?? -Infinity, mark.usedAtMs ?? -Infinity);
  const { pinned: _pinned, lastUsedAtMs: _lastUsed, ...rest } = record;
  return { ...rest, ...(pinned ? { pinned } : {}), ...(Number.isFinite(lastUsedAtMs) ? { lastUsedAtMs } : {}) };
}
