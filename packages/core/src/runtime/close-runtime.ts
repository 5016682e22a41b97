import type { SessionRecord } from '../store/records';
import type { RuntimeCloseRequest, RuntimeCloseResult } from '../wire/runtime-lifecycle';
import { loadServedSession, withRuntimeLock } from './runtime-access';
import { toRuntimeRecord } from './runtime-view';
import type { OperationScope, ServiceContext } from './service-context';
import { backendSnapshots, deleteUnkeptSnapshots, type SnapshotKey } from './snapshot-keepers';
import { lifecycleEvent } from './lifecycle-events';

/**
 * Closes a runtime: checkout descendants first when `cascade`; then releases the backend (the
 * provider resource goes when no runtime remains bound to it); then, unless `keep_snapshots`,
 * deletes every snapshot of its checkpoints that nothing else keeps. Records stay, so lineage
 * never dangles. Re-closing a closed runtime with `keep_snapshots` omitted keeps the earlier
 * choice (retrying any snapshot cleanup left over); an explicit value replaces it: `false`
 * releases snapshots kept so far, `true` keeps what an earlier cleanup failed to delete.
 */
export async function closeRuntime(ctx: ServiceContext, request: RuntimeCloseRequest, scope: OperationScope): Promise<RuntimeCloseResult> {
  return withRuntimeLock(ctx, request.runtime_id, 'exclusive', async (ctx) => {
    let session = await loadServedSession(ctx, request.runtime_id);
    scope.providerId = session.providerId;
    const closedRuntimeIds: string[] = [];
    const deletedSnapshotIds: string[] = [];
    if (request.cascade) {
      for (const child of await ctx.store.listChildSessions(session.runtimeId)) {
        const result = await closeRuntime(ctx, { ...request, runtime_id: child.runtimeId }, { providerId: null });
        closedRuntimeIds.push(...result.closed_runtime_ids);
        deletedSnapshotIds.push(...result.deleted_snapshot_ids);
      }
    }

    let releasedBackend = false;
    const candidates: SnapshotKey[] = [];
    if (session.status !== 'closed') {
      if (session.backend) {
        // A snapshot only the live backend knows (its record was never committed) must not leak.
        // The snapshot the backend was created from loses this keeper once the backend is gone.
        candidates.push(...backendSnapshots(ctx, session.backend));
        releasedBackend = await ctx.backends.release(session.runtimeId, session.backend);
      }
      session = closed(session, request.keep_snapshots ?? false, ctx.clock());
      await ctx.store.commit({
        sessions: [session],
        events: [lifecycleEvent('runtime.closed', session.updatedAtMs, session, { keep_snapshots: session.keepSnapshots })],
      });
      closedRuntimeIds.unshift(session.runtimeId);
    } else if (request.keep_snapshots !== undefined && request.keep_snapshots !== session.keepSnapshots) {
      // Re-closing: an explicit keep_snapshots replaces the earlier choice; omitted keeps it.
      session = { ...session, keepSnapshots: request.keep_snapshots, updatedAtMs: ctx.clock() };
      await ctx.store.commit({ sessions: [session] });
    }

    if (!session.keepSnapshots) {
      candidates.push(...(await ctx.store.listSnapshotIdsOfRuntime(session.runtimeId)));
      // The snapshot a checkout child started from: when a pause released the child's backend,
      // deleting it then may have failed, and no record of this runtime names it.
      const forkedFrom = session.forkedFromCheckpointId ? await ctx.store.getCheckpoint(session.forkedFromCheckpointId) : undefined;
      const origin = forkedFrom?.backendRef;
      if (origin?.providerSnapshotId) candidates.push({ providerId: origin.providerId, snapshotId: origin.providerSnapshotId });
      deletedSnapshotIds.push(...(await deleteUnkeptSnapshots(ctx, candidates, 'close')));
    }
    return {
      runtime: toRuntimeRecord(session),
      released_backend: releasedBackend,
      deleted_snapshot_ids: deletedSnapshotIds,
      closed_runtime_ids: closedRuntimeIds,
    };
  });
}

function closed(session: SessionRecord, keepSnapshots: boolean, now: number): SessionRecord {
  return { ...session, status: 'closed', backend: null, pausedCheckpointId: null, keepSnapshots, updatedAtMs: now };
}
