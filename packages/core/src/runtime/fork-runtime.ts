import type { SessionForkRequest, SessionForkResult } from '../wire/checkpoints';
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
