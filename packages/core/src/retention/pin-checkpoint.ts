import { loadCheckpoint, withRuntimeLock } from '../runtime/runtime-access';
import { lifecycleEvent } from '../runtime/lifecycle-events';
import { toCheckpointView } from '../runtime/runtime-view';
import type { OperationScope, ServiceContext } from '../runtime/service-context';
import { idempotentCompletion } from '../runtime/idempotent-completion';
import { markedCheckpoint } from '../store/checkpoint-marks';
import type { CheckpointPinRequest, CheckpointPinResult } from '../wire/retention';

/**
 * Pins (or unpins) a checkpoint: while pinned no retention policy deletes its snapshot. A
 * control operation on the checkpoint's runtime (its exclusive lease: a retention pass deleting
 * that snapshot holds it too, so a pin never lands on a snapshot being deleted).
 */
export async function pinCheckpoint(ctx: ServiceContext, request: CheckpointPinRequest, scope: OperationScope): Promise<CheckpointPinResult> {
  const checkpoint = await loadCheckpoint(ctx, request.checkpoint_id);
  scope.providerId = checkpoint.session.providerId;
  return withRuntimeLock(ctx, checkpoint.runtimeId, 'exclusive', async (ctx) => {
    const pinned = request.pinned ?? true;
    const current = await loadCheckpoint(ctx, request.checkpoint_id);
    const mark = { checkpointId: current.checkpointId, pinned };
    const result: CheckpointPinResult = { checkpoint: toCheckpointView(markedCheckpoint(current, mark)) };
    await ctx.store.commit({
      checkpointMarks: [mark],
      events: [lifecycleEvent(pinned ? 'checkpoint.pinned' : 'checkpoint.unpinned', ctx.clock(), current)],
      ...idempotentCompletion(scope, result),
    });
    return result;
  });
}
