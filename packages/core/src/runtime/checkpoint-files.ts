import { CheckpointSnapshotDeletedError } from '../errors/snapshot-errors';
import { ProviderSnapshotNotFoundError, UnsupportedBackendError } from '@runtimectl/provider';
import type { RuntimeReadFileResult } from '../wire/data-operations';
import { loadCheckpoint } from './runtime-access';
import type { OperationScope, ServiceContext } from './service-context';

/**
 * read-file with a `checkpoint_id`: the file as the checkpoint's provider snapshot holds it,
 * read without restoring the snapshot (`BackendProviderV1.readSnapshotFile`). A checkpoint with
 * no snapshot (a provider without snapshots) or a provider that cannot read one answers
 * `unsupported_backend`; a deleted (or vanished) snapshot `checkpoint_snapshot_deleted`.
 */
export async function readCheckpointFile(
  ctx: ServiceContext,
  request: { checkpoint_id: string; path: string },
  scope: OperationScope,
): Promise<RuntimeReadFileResult> {
  const checkpoint = await loadCheckpoint(ctx, request.checkpoint_id);
  const ref = checkpoint.backendRef;
  const providerId = ref?.providerId ?? checkpoint.session.providerId;
  scope.providerId = providerId;
  if (!ref || (ref.providerSnapshotId === null && ref.snapshotDeletedAtMs === null)) {
    throw new UnsupportedBackendError(providerId, 'read_snapshot_file', `checkpoint ${checkpoint.checkpointId} has no snapshot to read files from: provider ${providerId} takes none`);
  }
  if (ref.providerSnapshotId === null) throw new CheckpointSnapshotDeletedError(checkpoint.checkpointId);
  try {
    const bytes = await ctx.backends.readSnapshotFile(providerId, ref.providerSnapshotId, request.path, ctx.files.readMaxBytes);
    return { content_base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  } catch (error) {
    if (ProviderSnapshotNotFoundError.isInstance(error)) throw new CheckpointSnapshotDeletedError(checkpoint.checkpointId);
    throw error;
  }
}
