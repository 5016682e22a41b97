import type { NewRuntimeEvent, RuntimeEventType } from '../store/event-log';

/** Why a provider snapshot was deleted (`snapshot.deleted`'s `reason`). */
export type SnapshotDeletionReason = 'manual' | 'close' | 'released' | 'reconcile' | 'vanished' | 'retention';

/**
 * An event for the log, to be committed in the same batch as the change it tells of (frozen). Data never
 * carries provider ids, host paths or secrets: only runtimectl's own ids and plain facts.
 */
export function lifecycleEvent(
  type: RuntimeEventType,
  atMs: number,
  about: { runtimeId: string | null; checkpointId?: string | null },
  data: Record<string, unknown> = {},
): NewRuntimeEvent {
  // Frozen, as the memory store keeps it: when `data` holds no nested object, it is stored uncopied.
  return Object.freeze({ type, atMs, runtimeId: about.runtimeId, checkpointId: about.checkpointId ?? null, data: Object.freeze({ ...data }) });
}
