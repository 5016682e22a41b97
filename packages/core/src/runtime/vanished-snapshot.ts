import { ProviderSnapshotNotFoundError } from '@runtimectl/provider';
import { CheckpointSnapshotDeletedError } from '../errors/snapshot-errors';
import type { CheckpointRecord, SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';
import { clearSnapshotFromRecords } from './snapshot-keepers';
import { lifecycleEvent } from './lifecycle-events';

/**
 * Runs a provider call that starts from `checkpoint`'s snapshot. When the provider says it no
 * longer has the snapshot, the snapshot is forgotten in every checkpoint record that shares it
 * (as delete-snapshot does once the provider deleted it), so nothing retries it, and the call
 * answers `CheckpointSnapshotDeletedError` instead of a provider error worth retrying.
 */
export async function unlessSnapshotVanished<T>(ctx: ServiceContext, checkpoint: CheckpointRecord, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const ref = checkpoint.backendRef;
    if (!ProviderSnapshotNotFoundError.isInstance(error) || !ref?.providerSnapshotId) throw error;
    await clearSnapshotFromRecords(ctx, { providerId: ref.providerId, snapshotId: ref.providerSnapshotId }, 'vanished');
    throw new CheckpointSnapshotDeletedError(checkpoint.checkpointId);
  }
}

/**
 * A paused runtime whose pause checkpoint has no snapshot any more can never resume: it is
 * recorded `failed`, with why, so the operator sees it and closes it (its checkpoints stay in the
 * log) instead of retrying a resume that cannot succeed. Reads the checkpoint again first: a
 * resume refused only because a delete was under way (which a paused runtime's resume point
 * refuses) leaves the runtime paused.
 */
export async function failIfUnresumable(ctx: ServiceContext, session: SessionRecord, checkpointId: string): Promise<void> {
  const ref = (await ctx.store.getCheckpoint(checkpointId))?.backendRef;
  if (!ref || ref.providerSnapshotId !== null || ref.snapshotDeletedAtMs === null) return;
  const reason =
    `cannot resume: the provider snapshot of its pause checkpoint ${checkpointId} no longer exists at the ${session.providerId} provider; ` +
    'close the runtime (its checkpoints stay in the log)';
  const now = ctx.clock();
  await ctx.store.commit({
    sessions: [{ ...session, status: 'failed', backend: null, pausedCheckpointId: null, lastError: reason, updatedAtMs: now }],
    events: [lifecycleEvent('runtime.failed', now, session, { reason })],
  });
}
