import { overrideFromWire } from '../retention/retention-policy';
import { expiryOf } from '../retention/expiry';
import { assertIdlePausable } from '../idle/idle-settings';
import { RuntimeClosedError, RuntimeExistsError } from '../errors/runtime-state-errors';
import type { SessionRecord } from '../store/records';
import type { RuntimeOpenRequest, RuntimeOpenResult } from '../wire/runtime-lifecycle';
import { homeNodeFor } from './home-node';
import { withRuntimeLock } from './runtime-access';
import { toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import { validateProviderOptions } from './provider-options';
import { reopenConflicts } from './reopen-conflicts';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';

/**
 * Opens a runtime and creates its backend. Re-opening an existing id re-attaches to it unchanged
 * (`created:false`, the seed's resume_session) when nothing the request gives contradicts it;
 * otherwise `runtime_exists` names the conflicting fields (see reopen-conflicts.ts). A new
 * runtime records `openedByKey`, the API key that opened it (never changed by a re-attach).
 */
export async function openRuntime(ctx: ServiceContext, request: RuntimeOpenRequest, scope: OperationScope, openedByKey?: string): Promise<RuntimeOpenResult> {
  if (request.runtime_id !== undefined) {
    const existing = await ctx.store.getSession(request.runtime_id);
    if (existing) return reattach(ctx, existing, request, scope);
  }
  const provider = ctx.registry.get(request.provider ?? ctx.defaultProvider);
  scope.providerId = provider.providerId;
  const providerOptions = validateProviderOptions(provider, request.provider_options);
  assertIdlePausable(provider, request.idle_pause_after_ms);
  const runtimeId = request.runtime_id ?? ctx.ids.runtimeId();

  return withRuntimeLock(ctx, runtimeId, 'exclusive', async (ctx) => {
    const raced = await ctx.store.getSession(runtimeId);
    if (raced) return reattach(ctx, raced, request, scope);
    const backend = await ctx.backends.create(runtimeId, provider.providerId, providerOptions);
    const now = ctx.clock();
    const session: SessionRecord = {
      runtimeId,
      conversationId: request.conversation_id,
      senderId: request.sender_id,
      status: 'idle',
      providerId: provider.providerId,
      providerOptions,
      backend,
      sessionState: request.session_state ?? null,
      metadata: request.metadata ?? {},
      parentRuntimeId: null,
      forkedFromCheckpointId: null,
      headCheckpointId: null,
      pausedCheckpointId: null,
      lastError: null,
      keepSnapshots: false,
      ...(request.retention ? { retention: overrideFromWire(request.retention) } : {}),
      ...expiryOf(request, now),
      ...(request.idle_pause_after_ms != null ? { idlePauseAfterMs: request.idle_pause_after_ms } : {}),
      ...(request.auto_resume != null ? { autoResume: request.auto_resume } : {}),
      ...(request.verify !== undefined ? { verify: request.verify } : {}),
      createdAtMs: now,
      updatedAtMs: now,
      homeNodeId: homeNodeFor(ctx, provider.providerId),
      ...(openedByKey !== undefined ? { openedByKey } : {}),
    };
    const result: RuntimeOpenResult = { runtime: toRuntimeRecord(session), created: true };
    try {
      await ctx.store.commit({
        sessions: [session],
        resolvedIntentIds: [backend.backendId],
        events: [lifecycleEvent('runtime.opened', now, session, { provider: session.providerId })],
        ...idempotentCompletion(scope, result),
      });
    } catch (error) {
      await ctx.backends.release(runtimeId, backend).catch(() => {});
      throw error;
    }
    return result;
  });
}

async function reattach(
  ctx: ServiceContext,
  existing: SessionRecord,
  request: RuntimeOpenRequest,
  scope: OperationScope,
): Promise<RuntimeOpenResult> {
  scope.providerId = existing.providerId;
  const conflicts = reopenConflicts(ctx, existing, request);
  if (conflicts.length > 0) throw new RuntimeExistsError(existing.runtimeId, conflicts, existing);
  if (existing.status === 'closed') throw new RuntimeClosedError(existing.runtimeId);
  return { runtime: toRuntimeRecord(existing, await ctx.leases.busyRuntimeIds()), created: false };
}
