import type { SessionRecord } from '../store/records';
import { listAllSessions } from './list-all-sessions';
import type { ServiceContext } from './service-context';

/**
 * The snapshots of `providerId` that runtimes depend on but the provider no longer lists: a
 * paused runtime's resume point, the snapshot a live backend (`idle`) was made from. Only
 * reported: the next resume or checkout asks the provider itself, and a snapshot it no longer
 * has then answers `checkpoint_snapshot_deleted` (and a paused runtime is recorded failed).
 */
export async function missingSnapshots(
  ctx: ServiceContext,
  providerId: string,
  listed: ReadonlySet<string>,
  idle: readonly SessionRecord[],
): Promise<string[]> {
  const needed = new Set<string>();
  for (const session of await listAllSessions(ctx, { status: 'paused' })) {
    const ref = session.pausedCheckpointId ? (await ctx.store.getCheckpoint(session.pausedCheckpointId))?.backendRef : undefined;
    if (ref?.providerId === providerId && ref.providerSnapshotId) needed.add(ref.providerSnapshotId);
  }
  for (const session of idle) {
    const source = session.backend?.sourceSnapshotId;
    if (session.backend?.providerId === providerId && source) needed.add(source);
  }
  return [...needed].filter((snapshotId) => !listed.has(snapshotId)).sort();
}
