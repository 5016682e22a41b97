import { SessionBusyError } from '../errors/runtime-state-errors';
import { closeRuntime } from '../runtime/close-runtime';
import { lifecycleEvent } from '../runtime/lifecycle-events';
import type { ServiceContext } from '../runtime/service-context';
import type { SessionRecord } from '../store/records';

export interface ExpiryPassReport {
  /** Runtimes closed because their `expires_at_ms` passed. */
  closed: number;
  /** Expired runtimes left for the next pass: an operation was in flight on them. */
  skippedBusy: number;
  failed: number;
}

/**
 * Closes every runtime (of those `actsOn` gives this node) whose `expiresAtMs` has passed, as a
 * close request would (its lease: a busy runtime is skipped until the next pass), keeping its
 * snapshots when the daemon is configured so, and logs `policy.acted` for each.
 */
export async function closeExpired(ctx: ServiceContext, sessions: Iterable<SessionRecord>, actsOn: (session: SessionRecord) => boolean): Promise<ExpiryPassReport> {
  const report: ExpiryPassReport = { closed: 0, skippedBusy: 0, failed: 0 };
  const now = ctx.clock();
  for (const session of sessions) {
    if (session.status === 'closed' || session.expiresAtMs == null || session.expiresAtMs > now || !actsOn(session)) continue;
    try {
      await closeRuntime(ctx, { runtime_id: session.runtimeId, keep_snapshots: ctx.expiry.keepSnapshots }, { providerId: null });
      await ctx.store.commit({
        events: [lifecycleEvent('policy.acted', ctx.clock(), session, { policy: 'ttl', action: 'closed', expires_at_ms: session.expiresAtMs })],
      });
      report.closed += 1;
    } catch (error) {
      if (SessionBusyError.isInstance(error)) report.skippedBusy += 1;
      else report.failed += 1;
    }
  }
  return report;
}
