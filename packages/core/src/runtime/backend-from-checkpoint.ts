import type { OperationLeases } from '../backend/snapshot-guard';
import { UnsupportedBackendError } from '@runtimectl/provider';
import { CheckpointSnapshotDeletedError } from '../errors/snapshot-errors';
import type { BackendBinding, BackendCheckpointRef, CheckpointRecord } from '../store/records';
import type { ServiceContext } from './service-context';
import { unlessSnapshotVanished } from './vanished-snapshot';
import { verifyRestore } from './verify-restore';

/**
 * The snapshot a backend would start from, leased in `leases` until the caller has committed;
 * null when the checkpoint has no backend ref. Refuses, before any provider call, what can never
 * start: a provider without checkout, a ref with no snapshot (local), a deleted snapshot (or one
 * being deleted).
 */
export async function leaseCheckoutSnapshot(
  ctx: ServiceContext,
  checkpoint: CheckpointRecord,
  leases: OperationLeases,
): Promise<(BackendCheckpointRef & { providerSnapshotId: string }) | null> {
  const ref = checkpoint.backendRef;
  if (!ref) return null;
  const provider = ctx.registry.get(ref.providerId);
  const snapshotId = ref.providerSnapshotId;
  if (!snapshotId && ref.snapshotDeletedAtMs !== null) throw new CheckpointSnapshotDeletedError(checkpoint.checkpointId);
  if (!snapshotId || !provider.checkout) throw new UnsupportedBackendError(ref.providerId, 'checkout');
  const lease = await ctx.guard.tryLease(ref.providerId, snapshotId);
  if (!lease) throw new CheckpointSnapshotDeletedError(checkpoint.checkpointId);
  leases.hold(lease);
  return { ...ref, providerSnapshotId: snapshotId };
}

/**
 * Starts a backend for `runtimeId` from a checkpoint's provider snapshot (checkout and resume).
 * Everything that can be refused is refused before the provider is called (leaseCheckoutSnapshot);
 * a snapshot the provider no longer has is forgotten and answers the same as a deleted one. The
 * snapshot stays leased in `leases` until the caller has committed. A checkpoint without a
 * backend ref yields no backend. With `verify` (see verifiesRestores) the restored workspace is
 * compared with the checkpoint's manifest (verifyRestore: a mismatch releases it and fails).
 */
export async function backendFromCheckpoint(
  ctx: ServiceContext,
  checkpoint: CheckpointRecord,
  runtimeId: string,
  leases: OperationLeases,
  verify: boolean,
): Promise<BackendBinding | null> {
  const ref = await leaseCheckoutSnapshot(ctx, checkpoint, leases);
  if (!ref) return null;
  const binding = await unlessSnapshotVanished(ctx, checkpoint, () => ctx.backends.checkout(runtimeId, ref, checkpoint.session.providerOptions));
  if (verify) await verifyRestore(ctx, checkpoint, runtimeId, binding);
  return binding;
}
