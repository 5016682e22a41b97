import { OperationLeases } from '../backend/snapshot-guard';
import { ProviderError, ProviderTimeoutError, UnsupportedBackendError } from '../errors/provider-errors';
import { RuntimectlError } from '../errors/runtimectl-error';
import { RuntimePausedError } from '../errors/runtime-state-errors';
import { providerCapabilities } from '../provider/capabilities';
import type { SessionRecord } from '../store/records';
import type { RuntimePauseRequest, RuntimePauseResult } from '../wire/checkpoints';
import { newCheckpointRecord } from './checkpoint-runtime';
import { assertNotClosed, loadSession, withLiveBackend, withRuntimeLock } from './runtime-access';
import { toRuntimeRecord } from './runtime-view';
import { backendSnapshots, deleteUnkeptSnapshots, type SnapshotKey } from './snapshot-keepers';
import type { OperationScope, ServiceContext } from './service-context';

/**
 * Snapshots an idle runtime (or reuses its clean snapshot), releases the live backend and
 * records the pause checkpoint resume will start from. A provider without snapshot support is
 * refused before anything happens. If the release fails, the runtime stays idle and bound to its
 * backend (never "paused but the sandbox still running and unbound") and the error keeps its
 * code; a snapshot made for this pause is deleted again, unless the release timed out (the
 * provider may still carry it out: the snapshot is kept for a retried pause).
 */
export async function pauseRuntime(ctx: ServiceContext, request: RuntimePauseRequest, scope: OperationScope): Promise<RuntimePauseResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async () => {
    const session = await loadSession(ctx, request.runtime_id);
    scope.providerId = session.providerId;
    assertNotClosed(session);
    if (session.status === 'paused') throw new RuntimePausedError(session.runtimeId);
    const provider = ctx.registry.get(session.providerId);
    if (!providerCapabilities(provider).pause) throw new UnsupportedBackendError(provider.providerId, 'pause');

    const leases = new OperationLeases();
    let released: SnapshotKey[] = [];
    try {
      const { ref } = await withLiveBackend(ctx, session, scope, async (_, binding) => {
        released = backendSnapshots(ctx, binding);
        const outcome = await ctx.backends.checkpoint(session.runtimeId, binding, request.name, leases);
        try {
          await ctx.backends.release(session.runtimeId, binding);
        } catch (error) {
          // A release that timed out may still be carried out by the provider, and then the
          // snapshot just taken is the only copy of the work: keep it (the backend's tracker
          // holds it, so a retried pause reuses it and a close deletes it). Only a release that
          // failed outright lets it go.
          const releaseMayHaveHappened = ProviderTimeoutError.isInstance(error);
          if (!outcome.reused && outcome.ref.providerSnapshotId && !releaseMayHaveHappened) {
            await ctx.backends.deleteSnapshot(outcome.ref.providerId, outcome.ref.providerSnapshotId).catch(() => {});
          }
          // provider_timeout and provider_capacity keep their code: callers decide to retry by it.
          if (RuntimectlError.isInstance(error) && error.code !== 'provider_error') throw error;
          throw new ProviderError(
            session.providerId,
            'release',
            `pause could not release the live backend, so the runtime stays idle and usable: ${(error as Error).message}`,
            error,
          );
        }
        return outcome;
      });
      const checkpoint = newCheckpointRecord(ctx, session, 'pause', request, ref);
      const paused: SessionRecord = {
        ...session,
        status: 'paused',
        backend: null,
        headCheckpointId: checkpoint.checkpointId,
        pausedCheckpointId: checkpoint.checkpointId,
        lastError: null,
        updatedAtMs: checkpoint.createdAtMs,
      };
      await ctx.store.commit({ checkpoints: [checkpoint], sessions: [paused], resolvedIntentIds: [ref.refId] });
      leases.releaseAll();
      // The released backend no longer keeps the snapshot it came from. The pause has already
      // happened, so a failed delete here does not fail it; the observer sees the failed call.
      await deleteUnkeptSnapshots(ctx, released).catch(() => []);
      return {
        runtime: toRuntimeRecord(paused),
        checkpoint_id: checkpoint.checkpointId,
        parent_checkpoint_id: checkpoint.parentCheckpointId,
        created_at_ms: checkpoint.createdAtMs,
        name: checkpoint.name,
        metadata: checkpoint.metadata,
      };
    } finally {
      leases.releaseAll();
    }
  });
}
