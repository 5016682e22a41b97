import type { TrackedBackend } from '../backend/tracked-backend';
import { BackendGoneError } from '@runtimectl/provider';
import { CheckpointNotFoundError, RuntimeNotFoundError } from '../errors/not-found-errors';
import { RuntimeClosedError, RuntimeExpiredError, RuntimeFailedError, RuntimePausedError } from '../errors/runtime-state-errors';
import type { BackendBinding, CheckpointRecord, SessionRecord } from '../store/records';
import { completePause, isMidPause } from './interrupted-pause';
import type { LeaseMode } from '../store/fleet-store';
import { underFence } from './fenced-context';
import { assertServedHere } from './home-node';
import type { OperationScope, ServiceContext } from './service-context';
import { lifecycleEvent } from './lifecycle-events';

export async function loadSession(ctx: ServiceContext, runtimeId: string): Promise<SessionRecord> {
  const session = await ctx.store.getSession(runtimeId);
  if (!session) throw new RuntimeNotFoundError(runtimeId);
  return session;
}

/** The runtime an operation is about to work on its backend: refused when another node is its home. */
export async function loadServedSession(ctx: ServiceContext, runtimeId: string): Promise<SessionRecord> {
  const session = await loadSession(ctx, runtimeId);
  await assertServedHere(ctx, session);
  return session;
}

export async function loadCheckpoint(ctx: ServiceContext, checkpointId: string): Promise<CheckpointRecord> {
  const checkpoint = await ctx.store.getCheckpoint(checkpointId);
  if (!checkpoint) throw new CheckpointNotFoundError(checkpointId);
  return checkpoint;
}

/**
 * Runs `fn` holding the runtime's lease (throws SessionBusyError at once on conflict). `fn` gets
 * the context to work with: every commit through it carries the lease's fence, so the store
 * refuses it (LeaseLostError) once the lease has lapsed — no call site can forget the fence.
 */
export async function withRuntimeLock<T>(
  ctx: ServiceContext,
  runtimeId: string,
  mode: LeaseMode,
  fn: (fenced: ServiceContext) => Promise<T>,
): Promise<T> {
  const fence = await ctx.leases.acquire(runtimeId, mode);
  try {
    return await fn(underFence(ctx, fence));
  } finally {
    await ctx.leases.release(fence);
  }
}

/**
 * The runtime may be operated on: not closed, and its TTL not passed — a runtime past its
 * `expiresAtMs` is refused (`runtime_expired`) from that instant, not from the policy pass that
 * closes it. Only close (and reads of its record) still reach it.
 */
export function assertOperable(ctx: ServiceContext, session: SessionRecord): void {
  if (session.status === 'closed') throw new RuntimeClosedError(session.runtimeId);
  if (isExpired(ctx, session)) throw new RuntimeExpiredError(session.runtimeId, session.expiresAtMs!);
}

/** Whether `session`'s TTL has passed (closed runtimes included). */
export function isExpired(ctx: ServiceContext, session: SessionRecord): boolean {
  return session.expiresAtMs != null && session.expiresAtMs <= ctx.clock();
}

/**
 * Runs `fn` with the live backend of an idle runtime, re-attaching after a restart. When the
 * provider resource has vanished (at attach or mid-operation), records the runtime as `failed`
 * with what was lost and raises RuntimeFailedError: a runtime is never left bound to a dead backend.
 */
export async function withLiveBackend<T>(
  ctx: ServiceContext,
  session: SessionRecord,
  scope: OperationScope,
  fn: (backend: TrackedBackend, binding: BackendBinding) => Promise<T>,
): Promise<T> {
  scope.providerId = session.providerId;
  assertOperable(ctx, session);
  if (session.status === 'paused') throw new RuntimePausedError(session.runtimeId);
  if (session.status === 'failed') throw new RuntimeFailedError(session.runtimeId, session.lastError ?? 'backend lost');
  const binding = session.backend;
  if (!binding) throw new RuntimeFailedError(session.runtimeId, 'the runtime has no backend');
  try {
    return await fn(await ctx.backends.backendOf(binding), binding);
  } catch (error) {
    return await lostBackend(ctx, session, error);
  } finally {
    // An operation on the runtime: its idle time starts again (noted in memory, flushed by the policy pass).
    ctx.activity.note(session.runtimeId, ctx.clock());
  }
}

async function lostBackend(ctx: ServiceContext, session: SessionRecord, error: unknown): Promise<never> {
  if (!BackendGoneError.isInstance(error)) throw error;
  if (isMidPause(session)) {
    // Interrupted after its backend was released: the pause checkpoint is the resume point.
    await ctx.store.commit({ sessions: [completePause(session, ctx.clock())] });
    throw new RuntimePausedError(session.runtimeId);
  }
  const reason = `its ${session.providerId} backend is gone (${error.message})`;
  const now = ctx.clock();
  await ctx.store.commit({
    sessions: [{ ...session, status: 'failed', lastError: reason, updatedAtMs: now }],
    events: [lifecycleEvent('runtime.failed', now, session, { reason })],
  });
  throw new RuntimeFailedError(session.runtimeId, reason, error);
}
