import { UnsupportedBackendError, SnapshotInUseError } from '@runtimectl/provider';
import type {
  RuntimeCheckpointSnapshotDeleteRequest,
  RuntimeCheckpointSnapshotDeleteResult,
} from '../wire/checkpoints';
import { loadCheckpoint } from './runtime-access';
import type { OperationScope, ServiceContext } from './service-context';
import { clearSnapshotFromRecords, hardKeepersOf } from './snapshot-keepers';

/**
 * Deletes the provider snapshot the checkpoint's own ref names (callers can never name a
 * provider id), then clears it from every checkpoint sharing it. Refused while a paused runtime
 * resumes from it or a live backend was made from it. Repeating it is a no-op.
 */
export async function deleteCheckpointSnapshot(
  ctx: ServiceContext,
  request: RuntimeCheckpointSnapshotDeleteRequest,
  scope: OperationScope,
): Promise<RuntimeCheckpointSnapshotDeleteResult> {
  const checkpoint = await loadCheckpoint(ctx, request.checkpoint_id);
  const ref = checkpoint.backendRef;
  const base = { checkpoint_id: checkpoint.checkpointId, runtime_id: checkpoint.runtimeId, provider: ref?.providerId ?? null };
  scope.providerId = ref?.providerId ?? null;
  const snapshotId = ref?.providerSnapshotId;
  if (!ref || !snapshotId) {
    return {
      ...base,
      provider_snapshot_id: null,
      provider_snapshot_names: [],
      deleted_provider_snapshot: false,
      cleared_checkpoint_ids: [],
      deleted_at_ms: ctx.clock(),
    };
  }
  const provider = ctx.registry.get(ref.providerId);
  if (!provider.deleteSnapshot) throw new UnsupportedBackendError(ref.providerId, 'delete_snapshot');
  const key = { providerId: ref.providerId, snapshotId };
  // Mark the delete first: no operation can start relying on the snapshot while keepers are checked.
  const endDelete = await ctx.guard.beginDelete(key.providerId, key.snapshotId);
  if (!endDelete) throw new SnapshotInUseError(`checkpoint ${checkpoint.checkpointId}`, []);
  try {
    const keepers = await hardKeepersOf(ctx, key);
    if (keepers.length > 0) throw new SnapshotInUseError(`checkpoint ${checkpoint.checkpointId}`, keepers);
    const deleted = await ctx.backends.deleteSnapshot(key.providerId, key.snapshotId);
    const cleared = await clearSnapshotFromRecords(ctx, key, 'manual');
    return {
      ...base,
      provider_snapshot_id: snapshotId,
      provider_snapshot_names: ref.providerSnapshotNames,
      deleted_provider_snapshot: deleted,
      cleared_checkpoint_ids: cleared,
      deleted_at_ms: ctx.clock(),
    };
  } finally {
    await endDelete();
  }
}
