import type { CheckpointRecord, SessionRecord } from '../store/records';
import type { StoreBatch } from '../store/runtime-store';

/**
 * A pause records its checkpoint (status still idle, `pausedCheckpointId` set) before it
 * releases the backend, and marks the runtime paused after. A runtime found in between was
 * interrupted mid-pause, by a crash or a failed release.
 */
export function isMidPause(session: SessionRecord): boolean {
  return session.status === 'idle' && session.pausedCheckpointId !== null;
}

/** Mid-pause with its backend released (or gone): the pause happened; its checkpoint is the resume point. */
export function completePause(session: SessionRecord, now: number): SessionRecord {
  return { ...session, status: 'paused', backend: null, lastError: null, updatedAtMs: now };
}

/**
 * A pause whose release failed: the runtime goes on idle, and its checkpoint stays in the log as
 * an ordinary checkpoint (snapshot kept), since nothing was paused and it is no resume point.
 */
export function abandonPause(session: SessionRecord, checkpoint: CheckpointRecord, now: number): StoreBatch {
  return {
    sessions: [{ ...session, pausedCheckpointId: null, updatedAtMs: now }],
    checkpoints: [{ ...checkpoint, kind: 'checkpoint' }],
  };
}
