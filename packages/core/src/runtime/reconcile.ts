import type { BackendProviderV1 } from '../provider/backend-provider-v1';
import type { SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';
import { completePause, isMidPause } from './interrupted-pause';
import { listAllSessions } from './list-all-sessions';
import { missingSnapshots } from './missing-snapshots';
import { deleteUnkeptSnapshots } from './snapshot-keepers';

/** What a start-up reconciliation found and did. */
export interface ReconcileReport {
  /** Intents left open by a previous process, now resolved. */
  resolvedIntents: number;
  /** Provider backends this installation owns that no runtime was bound to: released. */
  releasedBackends: string[];
  /** Provider snapshots this installation owns that nothing keeps: deleted. */
  deletedSnapshots: string[];
  /** Runtimes whose backend no longer exists at the provider: marked failed. */
  failedRuntimes: string[];
  /** Runtimes interrupted mid-pause (checkpoint recorded): their backend released, now paused. */
  completedPauses: string[];
  /**
   * Snapshots a paused runtime resumes from, or a live backend was made from, that the provider
   * no longer lists. Reported only: the next resume or checkout confirms it with the provider.
   */
  missingSnapshots: string[];
  /** Steps that could not be completed (they are retried at the next start). */
  errors: string[];
}

async function boundSessions(ctx: ServiceContext, backendId: string): Promise<SessionRecord[]> {
  return (await ctx.store.listSessionsByBackend(backendId)).filter(
    (session) => session.status !== 'closed' && session.backend?.backendId === backendId,
  );
}

async function reconcileProvider(
  ctx: ServiceContext,
  provider: BackendProviderV1 & Required<Pick<BackendProviderV1, 'listOwnedResources'>>,
  installationId: string,
  report: ReconcileReport,
): Promise<void> {
  const owned = await provider.listOwnedResources(installationId);
  for (const backend of owned.backends) {
    if ((await boundSessions(ctx, backend.backendId)).length > 0) continue;
    await provider.release({ backendId: backend.backendId, resource: backend.resource });
    report.releasedBackends.push(backend.backendId);
  }
  const snapshotKeys = owned.snapshots.map(({ snapshotId }) => ({ providerId: provider.providerId, snapshotId }));
  for (const key of snapshotKeys) {
    const recorded = (await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId)).length > 0;
    const sourced = (await ctx.store.listSessionsBySourceSnapshot(key.providerId, key.snapshotId)).some((s) => s.status !== 'closed');
    if (recorded || sourced) {
      // Recorded: delete it only if no keeper is left (a close whose cleanup failed).
      report.deletedSnapshots.push(...(await deleteUnkeptSnapshots(ctx, [key])));
    } else if (await provider.deleteSnapshot?.(key.snapshotId)) {
      report.deletedSnapshots.push(key.snapshotId);
    }
  }
  const idle = await listAllSessions(ctx, { status: 'idle', backendProviderId: provider.providerId });
  const listed = new Set(owned.snapshots.map(({ snapshotId }) => snapshotId));
  report.missingSnapshots.push(...(await missingSnapshots(ctx, provider.providerId, listed, idle)));
  const live = new Set(owned.backends.map((backend) => backend.backendId));
  for (const session of idle) {
    const alive = live.has(session.backend!.backendId);
    if (isMidPause(session)) {
      // Interrupted between recording the pause checkpoint and marking the runtime paused: the
      // checkpoint holds everything (the pause held the lock), so finish what was asked.
      if (alive) await provider.release({ backendId: session.backend!.backendId, resource: session.backend!.resource });
      await ctx.store.commit({ sessions: [completePause(session, ctx.clock())] });
      report.completedPauses.push(session.runtimeId);
      continue;
    }
    if (alive) continue;
    const reason = `its ${provider.providerId} backend no longer existed when the daemon started`;
    await ctx.store.commit({ sessions: [{ ...session, status: 'failed', lastError: reason, updatedAtMs: ctx.clock() }] });
    report.failedRuntimes.push(session.runtimeId);
  }
}

/**
 * Run once at start-up, before serving: releases provider backends and deletes snapshots that
 * carry this installation's labels but that no record accounts for (what a crash between a
 * provider call and its commit leaves behind), marks runtimes whose backend vanished as failed,
 * reports snapshots runtimes need that the provider no longer lists, and resolves the intents
 * the previous process left open. Providers without `listOwnedResources` are skipped (their open
 * intents stay for the next start).
 */
export async function reconcileProviderResources(ctx: ServiceContext, installationId: string): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    resolvedIntents: 0,
    releasedBackends: [],
    deletedSnapshots: [],
    failedRuntimes: [],
    completedPauses: [],
    missingSnapshots: [],
    errors: [],
  };
  const intents = await ctx.store.listIntents();
  const swept = new Set<string>();
  for (const provider of ctx.registry.list()) {
    if (!provider.listOwnedResources) continue;
    try {
      await reconcileProvider(ctx, provider as Parameters<typeof reconcileProvider>[1], installationId, report);
      swept.add(provider.providerId);
    } catch (error) {
      report.errors.push(`${provider.providerId}: ${(error as Error).message}`);
    }
  }
  const resolved = intents.filter((intent) => swept.has(intent.providerId)).map((intent) => intent.intentId);
  if (resolved.length > 0) await ctx.store.commit({ resolvedIntentIds: resolved });
  report.resolvedIntents = resolved.length;
  return report;
}
