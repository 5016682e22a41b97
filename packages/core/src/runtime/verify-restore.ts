import { CheckpointVerificationFailedError } from '../errors/verification-errors';
import { providerCapabilities } from '@runtimectl/provider';
import { buildTrees } from '../manifest/build-trees';
import { diffTrees, type TreeChange } from '../manifest/diff-trees';
import type { NewRuntimeEvent } from '../store/event-log';
import type { BackendBinding, CheckpointRecord } from '../store/records';
import { lifecycleEvent } from './lifecycle-events';
import type { ServiceContext } from './service-context';
import { unstoredTreesFirst } from './unstored-trees';

/** Differing paths a failed verification lists (`truncated` says there were more). */
export const MAX_DIFFERING_PATHS = 100;

/** One verification that ran: for the `restore_verifications_total` counter. */
export interface RestoreVerificationEvent {
  providerId: string;
  outcome: 'passed' | 'failed';
}

/**
 * Whether restores for a runtime with these settings (a session, or a checkpoint's snapshot of
 * one for its checkout children) are verified: its own `verify`, else the daemon's mode, whose
 * `auto` is the provider's declared default.
 */
export function verifiesRestores(ctx: ServiceContext, settings: { providerId: string; verify?: boolean | null }): boolean {
  if (typeof settings.verify === 'boolean') return settings.verify;
  if (ctx.restores.verify !== 'auto') return ctx.restores.verify === 'always';
  return providerCapabilities(ctx.registry.get(settings.providerId)).restore_verification === 'default';
}

/**
 * Compares the workspace of `binding` (just restored from `checkpoint` for `runtimeId`, not
 * committed yet) with the checkpoint's manifest: the new backend's manifest is built into trees
 * and its root compared with the recorded one. Nothing to compare (no recorded manifest, a
 * provider without `manifest()`) passes unchecked. On a mismatch the changed paths (the tree
 * diff from the checkpoint's stored trees to the new ones, in memory) fail the restore with
 * CheckpointVerificationFailedError and a `verification.failed` event. A restore that fails here
 * (a manifest call that failed included) releases the new backend and resolves its intent
 * (when the release failed, reconciliation releases it). Every comparison is reported to
 * `ctx.restores.observe`.
 */
export async function verifyRestore(ctx: ServiceContext, checkpoint: CheckpointRecord, runtimeId: string, binding: BackendBinding): Promise<void> {
  const events: NewRuntimeEvent[] = [];
  try {
    const changes = await restoredChanges(ctx, checkpoint, binding);
    if (changes.length === 0) return;
    const truncated = changes.length > MAX_DIFFERING_PATHS;
    // The checkpoint's runtime: a checkout's child never existed (a resume's runtime is the checkpoint's).
    const about = { runtimeId: checkpoint.runtimeId, checkpointId: checkpoint.checkpointId };
    const operation = runtimeId === checkpoint.runtimeId ? 'resume' : 'checkout';
    events.push(lifecycleEvent('verification.failed', ctx.clock(), about, { operation, differing_paths: changes.length, truncated }));
    throw new CheckpointVerificationFailedError(checkpoint.checkpointId, changes.slice(0, MAX_DIFFERING_PATHS), truncated);
  } catch (error) {
    const released = await ctx.backends.release(runtimeId, binding).catch(() => false);
    await ctx.store.commit({ resolvedIntentIds: released ? [binding.backendId] : [], events }).catch(() => {});
    throw error;
  }
}

/**
 * The paths where the restored workspace differs from the checkpoint's manifest; none when it
 * matches, when the provider proves it is exactly the snapshot (`restoredExactly`: no manifest
 * read), or when nothing can be compared.
 */
async function restoredChanges(ctx: ServiceContext, checkpoint: CheckpointRecord, binding: BackendBinding): Promise<TreeChange[]> {
  const expected = checkpoint.manifestRoot;
  if (!expected) return [];
  const snapshotId = checkpoint.backendRef?.providerSnapshotId;
  if (snapshotId && (await ctx.backends.restoredExactly(binding, snapshotId))) {
    ctx.restores.observe({ providerId: binding.providerId, outcome: 'passed' });
    return [];
  }
  const manifest = (await ctx.backends.backendOf(binding)).manifest;
  if (!manifest) return [];
  const { root, objects } = buildTrees(await manifest());
  const passed = root === expected;
  ctx.restores.observe({ providerId: binding.providerId, outcome: passed ? 'passed' : 'failed' });
  return passed ? [] : diffTrees(expected, root, unstoredTreesFirst(ctx.store, objects));
}
