import { OperationLeases } from '../backend/snapshot-guard';
import type { CheckpointRecord, SessionRecord } from '../store/records';
import type { RuntimeCheckoutRequest, RuntimeCheckoutResult } from '../wire/checkpoints';
import { backendFromCheckpoint } from './backend-from-checkpoint';
import { verifiesRestores } from './verify-restore';
import { homeNodeFor } from './home-node';
import { loadCheckpoint, loadServedSession, withRuntimeLock } from './runtime-access';
import { bindingAfterCapture } from './clean-state';
import { toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';
import { deleteUnkeptSnapshots } from './snapshot-keepers';

/** What a checkout's children are made of, under the source's `checkout` lease. */
export interface CheckoutSource {
  /** The context holding the source's lease: commits carry its fence. */
  ctx: ServiceContext;
  checkpoint: CheckpointRecord;
  /** The children's home node (null: every node serves them). */
  homeNodeId: string | null;
  /** Snapshot leases held until the children are committed. */
  leases: OperationLeases;
}

/**
 * Runs `fn` with the checkpoint's source runtime held in `checkout` mode. The source must be idle
 * when the checkout arrives (busy source → SessionBusy); the `checkout` lease lets other checkouts
 * and data operations go on and refuses control operations (close among them) until `fn` is done,
 * while the snapshot leases keep delete-snapshot away. A checkout that failed offers the snapshot
 * for deletion: a close or pause that let go of its last keeper meanwhile left it to this one.
 */
export async function underCheckoutLease<T>(
  ctx: ServiceContext,
  checkpointId: string,
  scope: OperationScope,
  fn: (source: CheckoutSource) => Promise<T>,
): Promise<T> {
  const checkpoint = await loadCheckpoint(ctx, checkpointId);
  scope.providerId = checkpoint.session.providerId;
  const homeNodeId = homeNodeFor(ctx, checkpoint.session.providerId);
  // A node-local snapshot lives on the source's home node: only it can check the checkpoint out.
  if (homeNodeId) await loadServedSession(ctx, checkpoint.runtimeId);
  try {
    return await withRuntimeLock(ctx, checkpoint.runtimeId, 'checkout', async (fenced) => {
      const leases = new OperationLeases();
      try {
        return await fn({ ctx: fenced, checkpoint, homeNodeId, leases });
      } finally {
        await leases.releaseAll();
      }
    });
  } catch (error) {
    // A delete its lease held off (the last keeper let go meanwhile, on any node) is done now.
    const snapshotId = checkpoint.backendRef?.providerSnapshotId;
    if (snapshotId) await deleteUnkeptSnapshots(ctx, [{ providerId: checkpoint.backendRef!.providerId, snapshotId }], 'released').catch(() => []);
    throw error;
  }
}

/**
 * One new child of the checkpoint, not yet committed: its id is generated
 * (`<root>:checkout:<32hex>`), its backend starts from the checkpoint's snapshot and its head is
 * the checkpoint, so its first checkpoint names it as parent. The backend starts clean (its first
 * checkpoint reuses the snapshot) when the snapshot was taken at rest; else dirty, since a
 * provider whose snapshots hold processes (E2B) restores the jobs that were running.
 */
export async function newCheckoutChild(source: CheckoutSource, request: RuntimeCheckoutRequest): Promise<SessionRecord> {
  const { ctx, checkpoint } = source;
  const childId = ctx.ids.checkoutChildId(checkpoint.runtimeId);
  const created = await backendFromCheckpoint(ctx, checkpoint, childId, source.leases, verifiesRestores(ctx, checkpoint.session));
  const now = ctx.clock();
  const snapshot = checkpoint.session;
  return {
    runtimeId: childId,
    conversationId: request.conversation_id ?? snapshot.conversationId,
    senderId: request.sender_id ?? snapshot.senderId,
    status: 'idle',
    providerId: snapshot.providerId,
    providerOptions: snapshot.providerOptions,
    backend: created && bindingAfterCapture(created, checkpoint),
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
    homeNodeId: source.homeNodeId,
    ...(snapshot.verify != null ? { verify: snapshot.verify } : {}),
  };
}

/**
 * Records `children` (resolving their backends' intents) together with the caller's
 * Idempotency-Key completion answering `result`, in one commit: a retry finds either all of them
 * and the stored answer, or none. A refused commit releases every child's backend.
 */
export async function commitCheckoutChildren(
  ctx: ServiceContext,
  children: readonly SessionRecord[],
  scope: OperationScope,
  result: unknown,
): Promise<void> {
  const backends = children.flatMap((child) => (child.backend ? [{ runtimeId: child.runtimeId, backend: child.backend }] : []));
  try {
    await ctx.store.commit({
      sessions: [...children],
      resolvedIntentIds: backends.map(({ backend }) => backend.backendId),
      // Used now: an expire-unused retention rule counts from here.
      checkpointMarks: [...new Set(children.map((child) => child.forkedFromCheckpointId!))].map((checkpointId) => ({ checkpointId, usedAtMs: ctx.clock() })),
      events: children.map((child) =>
        lifecycleEvent('checkout.created', child.createdAtMs, { runtimeId: child.runtimeId, checkpointId: child.forkedFromCheckpointId }, { source_runtime_id: child.parentRuntimeId }),
      ),
      ...idempotentCompletion(scope, result),
    });
  } catch (error) {
    await Promise.all(backends.map(({ runtimeId, backend }) => ctx.backends.release(runtimeId, backend).catch(() => {})));
    throw error;
  }
}

/** Creates a new runtime branch from a checkpoint (non-destructive to the source; see underCheckoutLease). */
export async function checkoutRuntime(
  ctx: ServiceContext,
  request: RuntimeCheckoutRequest,
  scope: OperationScope,
): Promise<RuntimeCheckoutResult> {
  return underCheckoutLease(ctx, request.checkpoint_id, scope, async (source) => {
    const child = await newCheckoutChild(source, request);
    const result: RuntimeCheckoutResult = {
      checkpoint_id: source.checkpoint.checkpointId,
      source_runtime_id: source.checkpoint.runtimeId,
      runtime: toRuntimeRecord(child),
    };
    await commitCheckoutChildren(source.ctx, [child], scope, result);
    return result;
  });
}
