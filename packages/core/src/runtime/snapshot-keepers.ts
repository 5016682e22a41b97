import type { BackendBinding, CheckpointRecord } from '../store/records';
import type { ServiceContext } from './service-context';
import { lifecycleEvent, type SnapshotDeletionReason } from './lifecycle-events';

export interface SnapshotKey {
  providerId: string;
  snapshotId: string;
}

/**
 * Runtimes that need snapshot S in a way no delete may break: a paused runtime whose resume
 * point is S, and a live (non-closed) runtime whose backend was created from S.
 */
export async function hardKeepersOf(ctx: ServiceContext, key: SnapshotKey): Promise<string[]> {
  const keepers = new Set<string>();
  for (const checkpoint of await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId)) {
    const session = await ctx.store.getSession(checkpoint.runtimeId);
    if (session?.status === 'paused' && session.pausedCheckpointId === checkpoint.checkpointId) keepers.add(session.runtimeId);
  }
  for (const session of await ctx.store.listSessionsBySourceSnapshot(key.providerId, key.snapshotId)) {
    if (session.status !== 'closed' && session.backend?.sourceSnapshotId === key.snapshotId) keepers.add(session.runtimeId);
  }
  return [...keepers].sort();
}

/**
 * Whether anything still keeps S: a hard keeper, or a checkpoint referencing S that belongs to
 * a runtime not closed, or closed with keep_snapshots.
 */
async function isKept(ctx: ServiceContext, key: SnapshotKey): Promise<boolean> {
  if ((await hardKeepersOf(ctx, key)).length > 0) return true;
  for (const checkpoint of await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId)) {
    const session = await ctx.store.getSession(checkpoint.runtimeId);
    if (!session || session.status !== 'closed' || session.keepSnapshots) return true;
  }
  return false;
}

/** After the provider deleted S: clears it from every checkpoint record that shares it. */
export async function clearSnapshotFromRecords(ctx: ServiceContext, key: SnapshotKey, reason: SnapshotDeletionReason): Promise<string[]> {
  const deletedAtMs = ctx.clock();
  const sharing = await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId);
  const cleared: CheckpointRecord[] = sharing.map((checkpoint) => ({
    ...checkpoint,
    backendRef: checkpoint.backendRef && {
      ...checkpoint.backendRef,
      providerSnapshotId: null,
      providerSnapshotNames: [],
      snapshotDeletedAtMs: deletedAtMs,
    },
  }));
  if (cleared.length > 0) {
    await ctx.store.commit({
      checkpoints: cleared,
      events: cleared.map((checkpoint) => lifecycleEvent('snapshot.deleted', deletedAtMs, checkpoint, { reason })),
    });
  }
  return cleared.map((checkpoint) => checkpoint.checkpointId).sort();
}

/**
 * Deletes S at the provider and from the records unless something keeps it or an operation
 * leases it (on any node); resolves whether it did. What is kept is checked first, without the
 * delete's lease: a delete that would not happen never refuses a concurrent checkout of S.
 */
async function deleteUnlessKept(ctx: ServiceContext, key: SnapshotKey, reason: SnapshotDeletionReason): Promise<boolean> {
  if (await isKept(ctx, key)) return false;
  const endDelete = await ctx.guard.beginDelete(key.providerId, key.snapshotId);
  if (!endDelete) return false;
  try {
    if (await isKept(ctx, key)) return false;
    await ctx.backends.deleteSnapshot(key.providerId, key.snapshotId);
    await clearSnapshotFromRecords(ctx, key, reason);
    return true;
  } finally {
    await endDelete();
  }
}

/**
 * Deletes, at the provider and from the records, each candidate snapshot that nothing keeps and
 * no in-flight operation leases. Tries every candidate; if any provider delete failed, throws
 * the first failure after the others were attempted (a later close retries them).
 */
export async function deleteUnkeptSnapshots(ctx: ServiceContext, candidates: SnapshotKey[], reason: SnapshotDeletionReason): Promise<string[]> {
  const unique = new Map(candidates.map((key) => [`${key.providerId}\u0000${key.snapshotId}`, key]));
  const deleted: string[] = [];
  let firstFailure: unknown;
  for (const key of unique.values()) {
    try {
      if (await deleteUnlessKept(ctx, key, reason)) deleted.push(key.snapshotId);
    } catch (error) {
      firstFailure ??= error;
    }
  }
  if (firstFailure !== undefined) throw firstFailure;
  return deleted;
}

/**
 * Snapshots a backend holds on to: the one it was created from, and one only this process knows
 * it made (a checkpoint whose record was never committed). Once the backend is released they are
 * candidates for deletion, or nothing would ever delete them.
 */
export function backendSnapshots(ctx: ServiceContext, binding: BackendBinding): SnapshotKey[] {
  const keys: SnapshotKey[] = [];
  if (binding.sourceSnapshotId) keys.push({ providerId: binding.providerId, snapshotId: binding.sourceSnapshotId });
  const lastRef = ctx.backends.lastRefOf(binding.backendId);
  if (lastRef?.providerSnapshotId) keys.push({ providerId: lastRef.providerId, snapshotId: lastRef.providerSnapshotId });
  return keys;
}
