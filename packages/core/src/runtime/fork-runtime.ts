import type { SessionForkRequest, SessionForkResult } from '../wire/checkpoints';
import type { RuntimeForkRequest, RuntimeForkResult } from '../wire/checkout-children';
import { checkoutChildren } from './checkout-children';
import { checkoutRuntime } from './checkout-runtime';
import { checkpointRuntime } from './checkpoint-runtime';
import type { OperationScope, ServiceContext } from './service-context';

/** The seed's compatibility fork, modelled as checkpoint runtime → checkout runtime. */
export async function forkRuntime(ctx: ServiceContext, request: SessionForkRequest, scope: OperationScope): Promise<SessionForkResult> {
  const checkpoint = await checkpointRuntime(
    ctx,
    { runtime_id: request.parent_session_id, ...(request.snapshot_name ? { name: request.snapshot_name } : {}) },
    scope,
  );
  const checkout = await checkoutRuntime(
    ctx,
    {
      checkpoint_id: checkpoint.checkpoint_id,
      ...(request.conversation_id ? { conversation_id: request.conversation_id } : {}),
      ...(request.sender_id ? { sender_id: request.sender_id } : {}),
    },
    scope,
  );
  return {
    parent: checkpoint.runtime,
    child: checkout.runtime,
    checkpoint_id: checkpoint.checkpoint_id,
    reused_backend_snapshot: checkpoint.reused_backend_snapshot,
  };
}

/**
 * Fork N: one checkpoint of the runtime (one snapshot, or the reused last one), then an N-way
 * checkout of it. Only the checkout's commit completes the caller's Idempotency-Key claim, with
 * the whole answer: a retry after a crash in between checkpoints again (reusing the clean
 * snapshot) and never finds half an answer.
 */
export async function forkRuntimeChildren(ctx: ServiceContext, request: RuntimeForkRequest, scope: OperationScope): Promise<RuntimeForkResult> {
  const checkpointScope: OperationScope = { providerId: null };
  const checkpoint = await checkpointRuntime(
    ctx,
    {
      runtime_id: request.runtime_id,
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
    },
    checkpointScope,
  );
  scope.providerId = checkpointScope.providerId;
  const children = await checkoutChildren(
    ctx,
    {
      checkpoint_id: checkpoint.checkpoint_id,
      count: request.count ?? 1,
      ...(request.conversation_id !== undefined ? { conversation_id: request.conversation_id } : {}),
      ...(request.sender_id !== undefined ? { sender_id: request.sender_id } : {}),
    },
    scope,
  );
  return {
    ...children,
    reused_backend_snapshot: checkpoint.reused_backend_snapshot,
    ...(checkpoint.background_processes !== undefined ? { background_processes: checkpoint.background_processes } : {}),
  };
}
