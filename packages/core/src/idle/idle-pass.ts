import { SessionBusyError } from '../errors/runtime-state-errors';
import { lifecycleEvent } from '../runtime/lifecycle-events';
import { pauseRuntime } from '../runtime/pause-runtime';
import { isExpired } from '../runtime/runtime-access';
import type { ServiceContext } from '../runtime/service-context';
import type { SessionRecord } from '../store/records';
import { idlePauseAfterOf } from './idle-settings';

export interface IdlePassReport {
  /** Runtimes paused because no operation ran on them for their idle time. */
  paused: number;
  /** Idle runtimes left for the next pass: an operation was in flight on them. */
  skippedBusy: number;
  failed: number;
}

/** This node's activity flushed to the store in one write (nothing to write: none). A failed write keeps it for the next pass. */
export async function flushActivity(ctx: ServiceContext): Promise<void> {
  const marks = ctx.activity.drain();
  if (marks.length === 0) return;
  try {
    await ctx.store.commit({ sessionMarks: marks });
  } catch (error) {
    ctx.activity.restore(marks);
    throw error;
  }
}

/**
 * When the last operation on `session` ran, as far as this node knows: the store's flushed time,
 * this node's own unflushed one, and its open (or checkout) otherwise. Resume marks it too, so
 * time spent paused never counts.
 */
export function lastActivityOf(ctx: ServiceContext, session: SessionRecord): number {
  return Math.max(session.createdAtMs, session.lastActiveAtMs ?? -Infinity, ctx.activity.latest(session.runtimeId) ?? -Infinity);
}

/**
 * Pauses every idle runtime (of those `actsOn` gives this node) with no operation for its idle
 * time, through the normal pause (its exclusive lease: a busy runtime is skipped until the next
 * pass; crash-safe through its intents), and logs `policy.acted` for each.
 */
export async function pauseIdle(ctx: ServiceContext, sessions: Iterable<SessionRecord>, actsOn: (session: SessionRecord) => boolean): Promise<IdlePassReport> {
  const report: IdlePassReport = { paused: 0, skippedBusy: 0, failed: 0 };
  for (const session of sessions) {
    // Past its TTL it is being closed (the expiry pass), not paused.
    if (session.status !== 'idle' || isExpired(ctx, session)) continue;
    const after = idlePauseAfterOf(ctx.idle, ctx.registry.has(session.providerId) ? ctx.registry.get(session.providerId) : undefined, session);
    if (after === null || !actsOn(session)) continue;
    const since = lastActivityOf(ctx, session);
    if (ctx.clock() - since < after) continue;
    try {
      await pauseRuntime(ctx, { runtime_id: session.runtimeId }, { providerId: null }, 'idle');
      await ctx.store.commit({ events: [lifecycleEvent('policy.acted', ctx.clock(), session, { policy: 'idle', action: 'paused', idle_since_ms: since })] });
      report.paused += 1;
    } catch (error) {
      if (SessionBusyError.isInstance(error)) report.skippedBusy += 1;
      else report.failed += 1;
    }
  }
  return report;
}
