import { OperationLeases } from '../backend/snapshot-guard';
import { ProviderError, UnsupportedBackendError, RuntimectlError, providerCapabilities } from '@runtimectl/provider';
import { RuntimePausedError } from '../errors/runtime-state-errors';
import type { SessionRecord } from '../store/records';
import type { RuntimePauseRequest, RuntimePauseResult } from '../wire/checkpoints';
import { backgroundProcessesOf, newCheckpointRecord } from './checkpoint-runtime';
import { idempotentCompletion } from './idempotent-completion';
import { abandonPause, completePause } from './interrupted-pause';
import { assertOperable, loadServedSession, withLiveBackend, withRuntimeLock } from './runtime-access';
import { bindingAfterCapture } from './clean-state';
import { captureBackend } from './checkpoint-manifest';
import { toRuntimeRecord } from './runtime-view';
import { backendSnapshots, deleteUnkeptSnapshots, type SnapshotKey } from './snapshot-keepers';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';

/**
 * Snapshots an idle runtime (or reuses its clean snapshot), records the pause checkpoint resume
 * will start from, releases the live backend, then marks the runtime paused. A provider without
 * snapshot support is refused before anything happens. The checkpoint is committed before the
 * release, so a crash in between loses nothing: start-up completes the pause, releasing the
 * backend if it is still there (see interrupted-pause.ts). If the release fails, the
 * runtime stays idle and bound to its backend (never "paused but the sandbox still running and
 * unbound"), the pause checkpoint stays in its log as an ordinary checkpoint (kind
 * `checkpoint`, snapshot kept), and the error keeps its code. `reason` (the idle pass's `idle`)
 * goes into the `runtime.paused` event; a user's pause has none.
 */
export async function pauseRuntime(ctx: ServiceContext, request: RuntimePauseRequest, scope: OperationScope, reason?: 'idle'): Promise<RuntimePauseResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async (ctx) => {
    const session = await loadServedSession(ctx, request.runtime_id);
    scope.providerId = session.providerId;
    assertOperable(ctx, session);
    if (session.status === 'paused') throw new RuntimePausedError(session.runtimeId);
    const provider = ctx.registry.get(session.providerId);
    if (!providerCapabilities(provider).pause) throw new UnsupportedBackendError(provider.providerId, 'pause');

    const leases = new OperationLeases();
    let released: SnapshotKey[] = [];
    try {
      const { checkpoint, pausing, reused } = await withLiveBackend(ctx, session, scope, async (backend, binding) => {
        released = backendSnapshots(ctx, binding);
        const { ref, reused, manifestRoot, treeObjects } = await captureBackend(ctx, session, backend, binding, request.name, leases);
        const recorded = newCheckpointRecord(ctx, session, 'pause', request, ref, manifestRoot);
        // Clean as of the pause checkpoint (if taken at rest): should the release fail, the runtime goes on with it.
        const midPause: SessionRecord = {
          ...session,
          backend: bindingAfterCapture(binding, recorded),
          headCheckpointId: recorded.checkpointId,
          pausedCheckpointId: recorded.checkpointId,
        };
        await ctx.store.commit({ checkpoints: [recorded], sessions: [midPause], resolvedIntentIds: [ref.refId], treeObjects });
        try {
          await ctx.backends.release(session.runtimeId, binding);
        } catch (error) {
          await ctx.store.commit(abandonPause(midPause, recorded, ctx.clock())).catch(() => {});
          // provider_timeout and provider_capacity keep their code: callers decide to retry by it.
          if (RuntimectlError.isInstance(error) && error.code !== 'provider_error') throw error;
          throw new ProviderError(
            session.providerId,
            'release',
            `pause could not release the live backend, so the runtime stays idle and usable: ${(error as Error).message}`,
            error,
          );
        }
        return { checkpoint: recorded, pausing: midPause, reused };
      });
      const paused = completePause(pausing, checkpoint.createdAtMs);
      const result: RuntimePauseResult = {
        runtime: toRuntimeRecord(paused),
        checkpoint_id: checkpoint.checkpointId,
        parent_checkpoint_id: checkpoint.parentCheckpointId,
        created_at_ms: checkpoint.createdAtMs,
        name: checkpoint.name,
        metadata: checkpoint.metadata,
        reused_backend_snapshot: reused,
        ...backgroundProcessesOf(checkpoint.backendRef),
      };
      await ctx.store.commit({
        sessions: [paused],
        events: [lifecycleEvent('runtime.paused', checkpoint.createdAtMs, { runtimeId: paused.runtimeId, checkpointId: checkpoint.checkpointId }, { ...(reason ? { reason } : {}), ...backgroundProcessesOf(checkpoint.backendRef) })],
        ...idempotentCompletion(scope, result),
      });
      await leases.releaseAll();
      // The released backend no longer keeps the snapshot it came from. The pause has already
      // happened, so a failed delete here does not fail it; the observer sees the failed call.
      await deleteUnkeptSnapshots(ctx, released, 'released').catch(() => []);
      return result;
    } finally {
      await leases.releaseAll();
    }
  });
}
