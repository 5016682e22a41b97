import type { SessionRecord, SnapshottedCheckpoint } from '../store/records';
import { isActive, type RetentionPolicy } from './retention-policy';

/** Why a policy keeps a checkpoint's snapshot. */
export type RetentionKeeper =
  /** Pinned: no policy touches it. */
  | 'pinned'
  /** Its runtime is paused and resumes from it. */
  | 'paused'
  /** A live runtime's backend was created from its snapshot. */
  | 'backend_source'
  /** Its runtime's backend is still as it captured it: the next checkpoint reuses the snapshot. */
  | 'clean'
  /** One of its runtime's newest `keepLast` snapshotted checkpoints. */
  | 'keep_last'
  /** Used (made, checked out, resumed) within `expireUnusedAfterMs`. */
  | 'recently_used'
  /** Its runtime has no retention rule. */
  | 'no_policy'
  /** Another checkpoint sharing the snapshot is kept. */
  | 'shared';

/** Why a policy deletes a checkpoint's snapshot. */
export type RetentionReason = 'outside_keep_last' | 'unused';

export interface RetentionVerdict {
  checkpointId: string;
  runtimeId: string;
  providerId: string;
  snapshotId: string;
  /** Whether the pass deletes the snapshot (every checkpoint sharing it says the same). */
  delete: boolean;
  /** Why it is deleted, or what keeps it (several may hold). */
  reasons: Array<RetentionKeeper | RetentionReason>;
}

export interface RetentionInput {
  now: number;
  /** The policy that applies to a runtime (the daemon's, with the runtime's override). */
  policyOf: (session: SessionRecord) => RetentionPolicy;
  /** Every runtime owning one of `checkpoints`, and every runtime not closed whose backend came from a snapshot. */
  sessions: ReadonlyMap<string, SessionRecord>;
  /** Checkpoints whose provider snapshot still exists, each runtime's complete. */
  checkpoints: readonly SnapshottedCheckpoint[];
}

export const snapshotKeyOf = (providerId: string, snapshotId: string) => `${providerId}\u0000${snapshotId}`;

function backendSources(sessions: ReadonlyMap<string, SessionRecord>): Set<string> {
  const sources = new Set<string>();
  for (const session of sessions.values()) {
    const backend = session.backend;
    if (session.status !== 'closed' && backend?.sourceSnapshotId) sources.add(snapshotKeyOf(backend.providerId, backend.sourceSnapshotId));
  }
  return sources;
}

/** Each runtime's snapshotted checkpoints, newest first (ids are time-ordered). */
function byRuntime(checkpoints: readonly SnapshottedCheckpoint[]): Map<string, SnapshottedCheckpoint[]> {
  const groups = new Map<string, SnapshottedCheckpoint[]>();
  for (const checkpoint of checkpoints) {
    const group = groups.get(checkpoint.runtimeId) ?? [];
    group.push(checkpoint);
    groups.set(checkpoint.runtimeId, group);
  }
  for (const group of groups.values()) group.sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : -1));
  return groups;
}

/** What keeps one checkpoint by itself, or why its policy would delete it. */
interface OwnVerdict {
  deletes: boolean;
  reasons: RetentionVerdict['reasons'];
}

function ownVerdict(input: RetentionInput, checkpoint: SnapshottedCheckpoint, rank: number, sources: Set<string>): OwnVerdict {
  const session = input.sessions.get(checkpoint.runtimeId);
  const ref = checkpoint.backendRef;
  const keepers: RetentionKeeper[] = [];
  if (checkpoint.pinned) keepers.push('pinned');
  if (session?.status === 'paused' && session.pausedCheckpointId === checkpoint.checkpointId) keepers.push('paused');
  if (sources.has(snapshotKeyOf(ref.providerId, ref.providerSnapshotId))) keepers.push('backend_source');
  if (session && session.status !== 'closed' && session.backend?.cleanCheckpointId === checkpoint.checkpointId) keepers.push('clean');
  const policy = session ? input.policyOf(session) : null;
  if (!policy || !isActive(policy)) return { deletes: false, reasons: [...keepers, 'no_policy'] };
  if (policy.keepLast !== null && rank < policy.keepLast) keepers.push('keep_last');
  const lastUsed = Math.max(checkpoint.createdAtMs, checkpoint.lastUsedAtMs ?? 0);
  const unused = policy.expireUnusedAfterMs !== null && input.now - lastUsed >= policy.expireUnusedAfterMs;
  if (policy.expireUnusedAfterMs !== null && !unused) keepers.push('recently_used');
  if (keepers.length > 0) return { deletes: false, reasons: keepers };
  const reasons: RetentionReason[] = [];
  if (policy.keepLast !== null) reasons.push('outside_keep_last');
  if (unused) reasons.push('unused');
  return { deletes: true, reasons };
}

/**
 * Which provider snapshots a retention pass deletes, and why each checkpoint's is kept or
 * deleted. Pure: the pass, its preview and its re-check under the runtime's lock all ask it.
 * A snapshot is deleted only when every checkpoint sharing it would be; a checkpoint whose
 * snapshot another one keeps is kept as `shared`. Ordered by checkpoint id.
 */
export function planRetention(input: RetentionInput): RetentionVerdict[] {
  const sources = backendSources(input.sessions);
  const own = new Map<string, OwnVerdict>();
  for (const group of byRuntime(input.checkpoints).values()) {
    group.forEach((checkpoint, rank) => own.set(checkpoint.checkpointId, ownVerdict(input, checkpoint, rank, sources)));
  }
  const kept = new Set<string>();
  for (const checkpoint of input.checkpoints) {
    const ref = checkpoint.backendRef;
    if (!own.get(checkpoint.checkpointId)!.deletes) kept.add(snapshotKeyOf(ref.providerId, ref.providerSnapshotId));
  }
  return input.checkpoints
    .map((checkpoint): RetentionVerdict => {
      const ref = checkpoint.backendRef;
      const verdict = own.get(checkpoint.checkpointId)!;
      const sharedKeep = verdict.deletes && kept.has(snapshotKeyOf(ref.providerId, ref.providerSnapshotId));
      return {
        checkpointId: checkpoint.checkpointId,
        runtimeId: checkpoint.runtimeId,
        providerId: ref.providerId,
        snapshotId: ref.providerSnapshotId,
        delete: verdict.deletes && !sharedKeep,
        reasons: sharedKeep ? ['shared'] : verdict.reasons,
      };
    })
    .sort((a, b) => (a.checkpointId < b.checkpointId ? -1 : a.checkpointId > b.checkpointId ? 1 : 0));
}
