import { OperationLeases } from '../backend/snapshot-guard';
import type { SessionRecord } from '../store/records';
import type { RuntimeCheckoutRequest, RuntimeCheckoutResult } from '../wire/checkpoints';
import { backendFromCheckpoint } from './backend-from-checkpoint';
import { homeNodeFor } from './home-node';
import { loadCheckpoint, loadServedSession, withRuntimeLock } from './runtime-access';
import { cleanBinding } from './clean-state';
import { toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';

/**
 * Creates a new runtime branch from a checkpoint. Non-destructive to the source: it must be idle
 * when the checkout arrives (busy source → SessionBusy), then the checkout holds it only in
 * `checkout` mode (other checkouts and data operations go on; control operations, close among
 * them, are refused) while the snapshot lease keeps delete-snapshot away. The child id is generated (`<root>:checkout:<32hex>`), its
 * backend starts from the checkpoint's snapshot, and its head is the checkpoint, so its first
 * checkpoint names it as parent and reuses its snapshot.
 */
export async function checkoutRuntime(
  ctx: ServiceContext,
  request: RuntimeCheckoutRequest,
  scope: OperationScope,
): Promise<RuntimeCheckoutResult> {
  const checkpoint = await loadCheckpoint(ctx, request.checkpoint_id);
  scope.providerId = checkpoint.session.providerId;
  const homeNodeId = homeNodeFor(ctx, checkpoint.session.providerId);
  // A node-local snapshot lives on the source's home node: only it can check the checkpoint out.
  if (homeNodeId) await loadServedSession(ctx, checkpoint.runtimeId);
  return withRuntimeLock(ctx, checkpoint.runtimeId, 'checkout', async (ctx) => {
    const leases = new OperationLeases();
    try {
      const childId = ctx.ids.checkoutChildId(checkpoint.runtimeId);
      const created = await backendFromCheckpoint(ctx, checkpoint, childId, leases);
      const backend = created && cleanBinding(created, checkpoint.checkpointId);
      const now = ctx.clock();
      const snapshot = checkpoint.session;
      const child: SessionRecord = {
        runtimeId: childId,
        conversationId: request.conversation_id ?? snapshot.conversationId,
        senderId: request.sender_id ?? snapshot.senderId,
        status: 'idle',
        providerId: snapshot.providerId,
        providerOptions: snapshot.providerOptions,
        backend,
        sessionState: snapshot.sessionState,
        metadata: { ...snapshot.metadata, ...request.metadata },
        parentRuntimeId: checkpoint.runtimeId,
        forkedFromCheckpointId: checkpoint.checkpointId,
        headCheckpointId: checkpoint.checkpointId,
        pausedCheckpointId: null,
        lastError: null,
        keepSnapshots: false,
        createdAtMs: now,
        updatedAtMs: now,
        homeNodeId,
      };
      const result: RuntimeCheckoutResult = {
        checkpoint_id: checkpoint.checkpointId,
        source_runtime_id: checkpoint.runtimeId,
        runtime: toRuntimeRecord(child),
      };
      try {
        await ctx.store.commit({
          sessions: [child],
          resolvedIntentIds: backend ? [backend.backendId] : [],
          events: [lifecycleEvent('checkout.created', now, { runtimeId: child.runtimeId, checkpointId: checkpoint.checkpointId }, { source_runtime_id: checkpoint.runtimeId })],
          ...idempotentCompletion(scope, result),
        });
      } catch (error) {
        if (backend) await ctx.backends.release(childId, backend).catch(() => {});
        throw error;
      }
      return result;
    } finally {
      leases.releaseAll();
    }
  });
}
