import { OperationLeases } from '../backend/snapshot-guard';
import { RuntimeFailedError, RuntimeNotPausedError } from '../errors/runtime-state-errors';
import { CheckpointSnapshotDeletedError } from '../errors/snapshot-errors';
import type { SessionRecord } from '../store/records';
import type { RuntimeResumeRequest, RuntimeResumeResult } from '../wire/checkpoints';
import { backendFromCheckpoint } from './backend-from-checkpoint';
import { verifiesRestores } from './verify-restore';
import { assertOperable, loadCheckpoint, loadServedSession, withRuntimeLock } from './runtime-access';
import { bindingAfterCapture } from './clean-state';
import { toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import type { OperationScope, ServiceContext } from './service-context';
import { failIfUnresumable } from './vanished-snapshot';
import { lifecycleEvent } from './lifecycle-events';

/** Why a runtime resumed (`runtime.resumed`'s `data.reason`): a resume request, or an operation on it that auto-resumed it. */
export type ResumeReason = 'request' | 'auto';

/**
 * Restores a paused runtime under the same id: a new backend from the pause checkpoint, status
 * idle. On failure the runtime stays paused and resumable, unless its snapshot is gone for good:
 * then it is recorded failed, saying why (see `failIfUnresumable`). `reason` goes into the
 * `runtime.resumed` event.
 */
export async function resumeRuntime(
  ctx: ServiceContext,
  request: RuntimeResumeRequest,
  scope: OperationScope,
  reason: ResumeReason = 'request',
): Promise<RuntimeResumeResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async (ctx) => {
    const session = await loadServedSession(ctx, request.runtime_id);
    scope.providerId = session.providerId;
    assertOperable(ctx, session);
    if (session.status === 'failed') throw new RuntimeFailedError(session.runtimeId, session.lastError ?? 'it cannot resume');
    if (session.status !== 'paused' || !session.pausedCheckpointId) throw new RuntimeNotPausedError(session.runtimeId);
    const checkpoint = await loadCheckpoint(ctx, session.pausedCheckpointId);
    const leases = new OperationLeases();
    try {
      const created = await backendFromCheckpoint(ctx, checkpoint, session.runtimeId, leases, verifiesRestores(ctx, session)).catch(async (error: unknown) => {
        if (CheckpointSnapshotDeletedError.isInstance(error)) await failIfUnresumable(ctx, session, checkpoint.checkpointId);
        throw error;
      });
      // Clean only when the pause snapshot was taken at rest (E2B restores the jobs that ran).
      const backend = created && bindingAfterCapture(created, checkpoint);
      const resumed: SessionRecord = {
        ...session,
        status: 'idle',
        backend,
        pausedCheckpointId: null,
        metadata: { ...session.metadata, ...request.metadata },
        lastError: null,
        updatedAtMs: ctx.clock(),
      };
      const result = { runtime: toRuntimeRecord(resumed) };
      try {
        await ctx.store.commit({
          sessions: [resumed],
          resolvedIntentIds: backend ? [backend.backendId] : [],
          checkpointMarks: [{ checkpointId: checkpoint.checkpointId, usedAtMs: resumed.updatedAtMs }],
          // Idle time starts again here: time spent paused never counts (idle/idle-pass.ts).
          sessionMarks: [{ runtimeId: resumed.runtimeId, activeAtMs: resumed.updatedAtMs }],
          events: [lifecycleEvent('runtime.resumed', resumed.updatedAtMs, { runtimeId: resumed.runtimeId, checkpointId: session.pausedCheckpointId }, { reason })],
          ...idempotentCompletion(scope, result),
        });
      } catch (error) {
        if (backend) await ctx.backends.release(session.runtimeId, backend).catch(() => {});
        throw error;
      }
      return result;
    } finally {
      await leases.releaseAll();
    }
  });
}
