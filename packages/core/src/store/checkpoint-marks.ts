import type { CheckpointMark, CheckpointRecord, SnapshottedCheckpoint } from './records';

/** `incoming` with the marks the store holds for it (`previous`'s), never its own: an upsert does not change marks. */
export function withMarksOf(incoming: CheckpointRecord, previous: CheckpointRecord | undefined): CheckpointRecord {
  // The common case (a new checkpoint, no marks on either side) keeps the record as it is.
  if (!previous?.pinned && previous?.lastUsedAtMs == null && !('pinned' in incoming) && !('lastUsedAtMs' in incoming)) return incoming;
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

/** The facts a retention pass reads of a checkpoint whose snapshot exists (its `backendRef` names one). */
export function snapshottedOf(record: CheckpointRecord): SnapshottedCheckpoint {
  const ref = record.backendRef!;
  return {
    checkpointId: record.checkpointId,
    runtimeId: record.runtimeId,
    createdAtMs: record.createdAtMs,
    ...(record.pinned ? { pinned: true } : {}),
    ...(record.lastUsedAtMs != null ? { lastUsedAtMs: record.lastUsedAtMs } : {}),
    backendRef: { providerId: ref.providerId, providerSnapshotId: ref.providerSnapshotId! },
  };
}
