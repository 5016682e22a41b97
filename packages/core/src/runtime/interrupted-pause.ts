import type { SessionRecord } from '../store/records';

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

/** A pause whose release failed: the runtime goes on idle (its pause checkpoint stays in the log). */
export function abandonPause(session: SessionRecord, now: number): SessionRecord {
  return { ...session, pausedCheckpointId: null, updatedAtMs: now };
}
