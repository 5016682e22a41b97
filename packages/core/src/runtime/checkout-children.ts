import { wireErrorOf } from '../errors/wire-error';
import type { SessionRecord } from '../store/records';
import type { RuntimeCheckoutRequest } from '../wire/checkpoints';
import type { RuntimeCheckoutChildrenResult } from '../wire/checkout-children';
import { leaseCheckoutSnapshot } from './backend-from-checkpoint';
import { commitCheckoutChildren, newCheckoutChild, underCheckoutLease } from './checkout-runtime';
import { toRuntimeRecord } from './runtime-view';
import type { OperationScope, ServiceContext } from './service-context';
import { settleBounded } from './settle-bounded';

/**
 * N-way checkout: `count` children of one checkpoint, their provider creates in parallel (at most
 * `ctx.checkout.parallelism` at once), each succeeding or failing on its own. What would refuse
 * every child (unknown checkpoint, busy source, deleted snapshot, a provider without checkout)
 * fails the request before any provider call; a child that fails later answers its error in its
 * place, and its backend was never recorded (a failed create leaves nothing). The children that
 * made it are committed together, with the Idempotency-Key completion, once all have settled.
 * When every child failed nothing was created: the request fails with the first child's error,
 * as a single checkout would (so a 429 or 5xx is retried, not kept as the key's answer).
 */
export async function checkoutChildren(
  ctx: ServiceContext,
  request: RuntimeCheckoutRequest & { count: number },
  scope: OperationScope,
): Promise<RuntimeCheckoutChildrenResult> {
  return underCheckoutLease(ctx, request.checkpoint_id, scope, async (source) => {
    await leaseCheckoutSnapshot(source.ctx, source.checkpoint, source.leases);
    const settled = await settleBounded(request.count, ctx.checkout.parallelism, () => newCheckoutChild(source, request));
    const children: SessionRecord[] = [];
    const result: RuntimeCheckoutChildrenResult = {
      checkpoint_id: source.checkpoint.checkpointId,
      source_runtime_id: source.checkpoint.runtimeId,
      results: settled.map((outcome) => {
        if (outcome.status === 'rejected') return { error: wireErrorOf(outcome.reason) };
        children.push(outcome.value);
        return { runtime: toRuntimeRecord(outcome.value) };
      }),
    };
    const [first] = settled;
    if (children.length === 0 && first?.status === 'rejected') throw first.reason;
    await commitCheckoutChildren(source.ctx, children, scope, result);
    return result;
  });
}
