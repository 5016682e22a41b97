import { SessionBusyError } from '../errors/runtime-state-errors';
import type { BackendProviderV1 } from '@runtimectl/provider';
import type { ProviderIntent, SessionRecord } from '../store/records';
import type { ServiceContext } from './service-context';
import { completePause, isMidPause } from './interrupted-pause';
import { listAllSessions } from './list-all-sessions';
import { missingSnapshots } from './missing-snapshots';
import { loadSession, withRuntimeLock } from './runtime-access';
import { backendSnapshots, deleteUnkeptSnapshots } from './snapshot-keepers';
import { lifecycleEvent } from './lifecycle-events';

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

/** What one sweep covers in a fleet (see fleet/maintenance.ts for who sweeps what). */
export interface ReconcileScope {
  /** The providers to sweep. */
  providers: BackendProviderV1[];
  /** Runtimes this sweep may judge (mark failed, complete a pause): node-local ones only at their home. */
  judges: (session: SessionRecord) => boolean;
  /**
   * Intents in flight on live nodes: their resources are not orphans, whatever the records say
   * yet. Read after each provider's listing, never before: an operation that started while the
   * listing ran has its resource in the listing, and its intent (written before its provider
   * call) is seen only by a read that follows.
   */
  inFlight: () => Promise<ProviderIntent[]>;
  /** Open intents this sweep accounts for: resolved once their provider was swept. */
  resolvable: ProviderIntent[];
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
  scope: ReconcileScope,
  report: ReconcileReport,
): Promise<{ deferredSnapshots: boolean }> {
  // Listed before the provider is asked: a backend bound before the listing existed at it if alive.
  const idle = (await listAllSessions(ctx, { status: 'idle', backendProviderId: provider.providerId })).filter(scope.judges);
  const owned = await provider.listOwnedResources(installationId);
  const ofProvider = (await scope.inFlight()).filter((intent) => intent.providerId === provider.providerId);
  const creating = new Set(ofProvider.filter((intent) => intent.kind === 'backend').map((intent) => intent.backendId));
  const snapshotting = ofProvider.some((intent) => intent.kind === 'snapshot');
  for (const backend of owned.backends) {
    if (creating.has(backend.backendId) || (await boundSessions(ctx, backend.backendId)).length > 0) continue;
    await provider.release({ backendId: backend.backendId, resource: backend.resource });
    report.releasedBackends.push(backend.backendId);
  }
  const snapshotKeys = owned.snapshots.map(({ snapshotId }) => ({ providerId: provider.providerId, snapshotId }));
  let deferredSnapshots = false;
  for (const key of snapshotKeys) {
    const recorded = (await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId)).length > 0;
    const sourced = (await ctx.store.listSessionsBySourceSnapshot(key.providerId, key.snapshotId)).some((s) => s.status !== 'closed');
    if (recorded || sourced) {
      // Recorded: delete it only if no keeper is left (a close whose cleanup failed).
      report.deletedSnapshots.push(...(await deleteUnkeptSnapshots(ctx, [key], 'reconcile')));
    } else if (snapshotting) {
      // Unrecorded, but a live node is making a snapshot of this provider whose record is yet to
      // come: it may be that one. Kept for a later sweep, so the snapshot intents this sweep
      // would account for stay open (resolving them would leave an orphan no sweep looks for).
      deferredSnapshots = true;
    } else if (await provider.deleteSnapshot?.(key.snapshotId)) {
      report.deletedSnapshots.push(key.snapshotId);
    }
  }
  const listed = new Set(owned.snapshots.map(({ snapshotId }) => snapshotId));
  report.missingSnapshots.push(...(await missingSnapshots(ctx, provider.providerId, listed, idle)));
  const live = new Set(owned.backends.map((backend) => backend.backendId));
  for (const listed of idle) {
    const backendId = listed.backend!.backendId;
    if (live.has(backendId) && !isMidPause(listed)) continue;
    // Judged under the runtime's exclusive lease, on its record as it is now: a runtime another
    // node is operating is left for the next sweep.
    await withRuntimeLock(ctx, listed.runtimeId, 'exclusive', async (ctx) => {
      const session = await loadSession(ctx, listed.runtimeId);
      if (session.status !== 'idle' || session.backend?.backendId !== backendId) return;
      if (isMidPause(session)) {
        // Interrupted between recording the pause checkpoint and marking the runtime paused: the
        // checkpoint holds everything (the pause held the lease), so finish what was asked.
        if (live.has(backendId)) await provider.release({ backendId, resource: session.backend.resource });
        await ctx.store.commit({ sessions: [completePause(session, ctx.clock())] });
        report.completedPauses.push(session.runtimeId);
        // As a pause does: the released backend no longer keeps the snapshot it came from. The
        // sweep above judged that snapshot while the binding still kept it. A failed delete is
        // the next sweep's (the snapshot is recorded, and then kept by nothing).
        try {
          report.deletedSnapshots.push(...(await deleteUnkeptSnapshots(ctx, backendSnapshots(ctx, session.backend), 'released')));
        } catch (error) {
          report.errors.push(`${provider.providerId}: deleting the snapshot a completed pause released: ${(error as Error).message}`);
        }
        return;
      }
      const reason = `its ${provider.providerId} backend no longer existed when the daemon started`;
      const now = ctx.clock();
      await ctx.store.commit({
        sessions: [{ ...session, status: 'failed', lastError: reason, updatedAtMs: now }],
        events: [lifecycleEvent('runtime.failed', now, session, { reason })],
      });
      report.failedRuntimes.push(session.runtimeId);
    }).catch((error: unknown) => {
      if (!SessionBusyError.isInstance(error)) throw error;
    });
  }
  return { deferredSnapshots };
}

/**
 * A sweep (at start-up, before serving, and by the fleet's maintenance holder): releases
 * provider backends and deletes snapshots that carry this installation's labels but that no
 * record accounts for (what a crash between a provider call and its commit leaves behind), marks
 * runtimes whose backend vanished as failed, reports snapshots runtimes need that the provider
 * no longer lists, and resolves the intents it accounts for. Providers without
 * `listOwnedResources` are skipped (their open intents stay for the next sweep).
 */
export async function reconcileProviderResources(ctx: ServiceContext, installationId: string, scope: ReconcileScope): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    resolvedIntents: 0,
    releasedBackends: [],
    deletedSnapshots: [],
    failedRuntimes: [],
    completedPauses: [],
    missingSnapshots: [],
    errors: [],
  };
  const swept = new Set<string>();
  const snapshotsDeferred = new Set<string>();
  for (const provider of scope.providers) {
    if (!provider.listOwnedResources) continue;
    try {
      const { deferredSnapshots } = await reconcileProvider(ctx, provider as Parameters<typeof reconcileProvider>[1], installationId, scope, report);
      swept.add(provider.providerId);
      if (deferredSnapshots) snapshotsDeferred.add(provider.providerId);
    } catch (error) {
      report.errors.push(`${provider.providerId}: ${(error as Error).message}`);
    }
  }
  const accountedFor = (intent: ProviderIntent) => swept.has(intent.providerId) && !(intent.kind === 'snapshot' && snapshotsDeferred.has(intent.providerId));
  const resolved = scope.resolvable.filter(accountedFor).map((intent) => intent.intentId);
  if (resolved.length > 0) await ctx.store.commit({ resolvedIntentIds: resolved });
  report.resolvedIntents = resolved.length;
  return report;
}
