import { overrideFromWire } from '../retention/retention-policy';
import { assertIdlePausable } from '../idle/idle-settings';
import type { SessionRecord } from '../store/records';
import type { CheckpointListQuery, CheckpointListResult, CheckpointView } from '../wire/checkpoints';
import type {
  RuntimeDetail,
  RuntimeListQuery,
  RuntimeListResult,
  RuntimeUpdateRequest,
  RuntimeUpdateResult,
} from '../wire/runtime-lifecycle';
import { assertOperable, loadCheckpoint, loadSession, withRuntimeLock } from './runtime-access';
import { toCheckpointView, toRuntimeDetail, toRuntimeListItem, toRuntimeRecord } from './runtime-view';
import { idempotentCompletion } from './idempotent-completion';
import type { OperationScope, ServiceContext } from './service-context';

const DEFAULT_PAGE_LIMIT = 50;

export async function getRuntime(ctx: ServiceContext, runtimeId: string): Promise<RuntimeDetail> {
  const session = await loadSession(ctx, runtimeId);
  return toRuntimeDetail(session, await ctx.leases.busyRuntimeIds());
}

/** Runtimes ordered by id. `status: running` lists idle runtimes with an operation in flight. */
export async function listRuntimes(ctx: ServiceContext, query: RuntimeListQuery): Promise<RuntimeListResult> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const busy = await ctx.leases.busyRuntimeIds();
  if (query.status === 'running') {
    const held = [...busy]
      .sort()
      .filter((id) => query.cursor === undefined || id > query.cursor);
    const sessions = (await Promise.all(held.map((id) => ctx.store.getSession(id)))).filter(
      (session): session is SessionRecord => session?.status === 'idle',
    );
    const page = sessions.slice(0, limit);
    return {
      runtimes: page.map((session) => toRuntimeListItem(session, busy)),
      next_cursor: sessions.length > limit ? (page.at(-1)?.runtimeId ?? null) : null,
    };
  }
  const page = await ctx.store.listSessions({
    limit,
    ...(query.status ? { status: query.status } : {}),
    ...(query.cursor ? { cursor: query.cursor } : {}),
  });
  return { runtimes: page.items.map((session) => toRuntimeListItem(session, busy)), next_cursor: page.nextCursor };
}

/** Replaces session_state, metadata and the runtime's own policies. A control operation: fails fast while another runs. */
export async function updateRuntime(ctx: ServiceContext, request: RuntimeUpdateRequest, scope: OperationScope): Promise<RuntimeUpdateResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async (ctx) => {
    const session = await loadSession(ctx, request.runtime_id);
    assertOperable(ctx, session);
    if (ctx.registry.has(session.providerId)) assertIdlePausable(ctx.registry.get(session.providerId), request.idle_pause_after_ms);
    const updated: SessionRecord = {
      ...session,
      ...(request.session_state !== undefined ? { sessionState: request.session_state } : {}),
      ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      ...(request.retention !== undefined ? { retention: overrideFromWire(request.retention) } : {}),
      ...(request.expires_at_ms !== undefined ? { expiresAtMs: request.expires_at_ms } : {}),
      ...(request.idle_pause_after_ms !== undefined ? { idlePauseAfterMs: request.idle_pause_after_ms } : {}),
      ...(request.auto_resume !== undefined ? { autoResume: request.auto_resume } : {}),
      ...(request.verify !== undefined ? { verify: request.verify } : {}),
      updatedAtMs: ctx.clock(),
    };
    scope.providerId = session.providerId;
    const result = { runtime: toRuntimeRecord(updated) };
    await ctx.store.commit({ sessions: [updated], ...idempotentCompletion(scope, result) });
    return result;
  });
}

export async function listCheckpoints(
  ctx: ServiceContext,
  runtimeId: string,
  query: CheckpointListQuery,
): Promise<CheckpointListResult> {
  await loadSession(ctx, runtimeId);
  const page = await ctx.store.listCheckpoints(runtimeId, {
    limit: query.limit ?? DEFAULT_PAGE_LIMIT,
    ...(query.cursor ? { cursor: query.cursor } : {}),
  });
  return { checkpoints: page.items.map(toCheckpointView), next_cursor: page.nextCursor };
}

export async function getCheckpoint(ctx: ServiceContext, checkpointId: string): Promise<CheckpointView> {
  return toCheckpointView(await loadCheckpoint(ctx, checkpointId));
}
