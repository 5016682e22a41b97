import type { RuntimeFence } from '../store/fleet-store';
import type { SessionRecord, SnapshottedCheckpoint } from '../store/records';
import { snapshottedOf } from '../store/checkpoint-marks';
import { underFence } from '../runtime/fenced-context';
import { lifecycleEvent } from '../runtime/lifecycle-events';
import type { ServiceContext } from '../runtime/service-context';
import { clearSnapshotFromRecords, type SnapshotKey } from '../runtime/snapshot-keepers';
import { planRetention, snapshotKeyOf, type RetentionInput, type RetentionVerdict } from './retention-plan';
import { effectivePolicy, isActive, type RetentionPolicy } from './retention-policy';

/**
 * Records per page of the store-wide reads. A page of full checkpoint records (session state
 * included) is what a synchronous store (SQLite) blocks the event loop for: the bench measured
 * about 100 ms per 1,000 on a loaded 2-core machine, so pages stay small and the pass yields
 * between them (see allPages).
 */
const PAGE = 250;

/** What one retention pass did. */
export interface RetentionPassReport {
  /** Provider snapshots deleted (their checkpoints' records stay, marked deleted). */
  deletedSnapshots: number;
  /** Snapshots left for the next pass: a runtime sharing them was busy, or an operation leased them. */
  skippedBusy: number;
  /** Snapshots whose delete the provider refused or failed: retried by the next pass. */
  failed: number;
}

/** Lets queued I/O (requests, timers) run: a synchronous store's page reads would otherwise follow each other in one stretch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every page of a read, with a turn of the event loop between pages. */
async function allPages<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
    if (cursor !== undefined) await nextTurn();
  } while (cursor !== undefined);
  return items;
}

/** Every runtime in the store, by id (the policy passes read them once per pass). */
export function readAllSessions(ctx: ServiceContext): Promise<SessionRecord[]> {
  return allPages((cursor) => ctx.store.listSessions({ limit: PAGE, ...(cursor ? { cursor } : {}) }));
}

const policyOf = (daemon: RetentionPolicy) => (session: SessionRecord) => effectivePolicy(daemon, session.retention);

/**
 * The plan's inputs for the whole store: every runtime, and every checkpoint whose snapshot
 * still exists — none when no runtime has a policy (a pass then reads no checkpoint) unless
 * `evenWithoutPolicy` (the preview shows every snapshot as kept by `no_policy`).
 */
export async function readRetentionInput(ctx: ServiceContext, now: number, options: { evenWithoutPolicy?: boolean } = {}): Promise<RetentionInput> {
  const sessions = await readAllSessions(ctx);
  const input = { now, policyOf: policyOf(ctx.retention.policy), sessions: new Map(sessions.map((s) => [s.runtimeId, s])) };
  if (!options.evenWithoutPolicy && !sessions.some((session) => isActive(input.policyOf(session)))) return { ...input, checkpoints: [] };
  const checkpoints = await allPages((cursor) => ctx.store.listSnapshottedCheckpoints({ limit: PAGE, ...(cursor ? { cursor } : {}) }));
  return { ...input, checkpoints };
}

/** What one snapshot's verdict depends on, read now: the runtimes sharing it (all their snapshotted checkpoints) and the live runtimes started from it. */
async function readSnapshotInput(ctx: ServiceContext, key: SnapshotKey, now: number): Promise<RetentionInput> {
  const sharing = await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId);
  const owners = [...new Set(sharing.map((checkpoint) => checkpoint.runtimeId))];
  const sessions = new Map<string, SessionRecord>();
  const checkpoints: SnapshottedCheckpoint[] = [];
  for (const runtimeId of owners) {
    const session = await ctx.store.getSession(runtimeId);
    if (session) sessions.set(runtimeId, session);
    const own = await allPages((cursor) => ctx.store.listCheckpoints(runtimeId, { limit: PAGE, ...(cursor ? { cursor } : {}) }));
    checkpoints.push(...own.filter((checkpoint) => checkpoint.backendRef?.providerSnapshotId).map(snapshottedOf));
  }
  for (const session of await ctx.store.listSessionsBySourceSnapshot(key.providerId, key.snapshotId)) sessions.set(session.runtimeId, session);
  return { now, policyOf: policyOf(ctx.retention.policy), sessions, checkpoints };
}

type Outcome = 'deleted' | 'kept' | 'busy';

/**
 * Deletes one snapshot the plan condemned, as a control operation on every runtime sharing it
 * (their leases, exclusive: a busy runtime is skipped until the next pass) and under the
 * snapshot's delete lease, after planning it again on what the store says now.
 */
async function deleteCondemned(ctx: ServiceContext, key: SnapshotKey, owners: readonly string[]): Promise<Outcome> {
  const fences: RuntimeFence[] = [];
  try {
    for (const owner of [...owners].sort()) {
      const fence = await ctx.leases.tryAcquire(owner, 'exclusive');
      if (!fence) return 'busy';
      fences.push(fence);
    }
    const endDelete = await ctx.guard.beginDelete(key.providerId, key.snapshotId);
    if (!endDelete) return 'busy';
    try {
      const now = ctx.clock();
      const wanted = snapshotKeyOf(key.providerId, key.snapshotId);
      const verdicts = planRetention(await readSnapshotInput(ctx, key, now)).filter((v) => snapshotKeyOf(v.providerId, v.snapshotId) === wanted);
      if (verdicts.length === 0 || !verdicts.every((verdict) => verdict.delete)) return 'kept';
      const fenced = fences.reduce(underFence, ctx);
      await ctx.backends.deleteSnapshot(key.providerId, key.snapshotId);
      await clearSnapshotFromRecords(fenced, key, 'retention');
      // Stamped now, not at `now` (the plan's time): it follows the snapshot.deleted events just committed.
      const actedAtMs = ctx.clock();
      await fenced.store.commit({ events: verdicts.map((verdict) => policyEvent(verdict, actedAtMs)) });
      return 'deleted';
    } finally {
      await endDelete();
    }
  } finally {
    await Promise.all(fences.map((fence) => ctx.leases.release(fence)));
  }
}

function policyEvent(verdict: RetentionVerdict, atMs: number) {
  return lifecycleEvent('policy.acted', atMs, verdict, { policy: 'retention', action: 'snapshot_deleted', reasons: verdict.reasons });
}

/** The snapshots `verdicts` condemn, each with the runtimes sharing it. */
function condemned(verdicts: readonly RetentionVerdict[]): Array<{ key: SnapshotKey; owners: string[] }> {
  const found = new Map<string, { key: SnapshotKey; owners: Set<string> }>();
  for (const verdict of verdicts) {
    if (!verdict.delete) continue;
    const id = snapshotKeyOf(verdict.providerId, verdict.snapshotId);
    const entry = found.get(id) ?? { key: { providerId: verdict.providerId, snapshotId: verdict.snapshotId }, owners: new Set<string>() };
    entry.owners.add(verdict.runtimeId);
    found.set(id, entry);
  }
  return [...found.values()].map(({ key, owners }) => ({ key, owners: [...owners] }));
}

/**
 * One retention pass (the policy passes run it every `retention.intervalMs`): plans over the
 * whole store, then deletes each condemned snapshot of the runtimes `actsOn` gives this node (see
 * deleteCondemned). Never throws for one snapshot: a failure is counted and the next pass tries again.
 */
export async function applyRetention(ctx: ServiceContext, actsOn: (session: SessionRecord) => boolean): Promise<RetentionPassReport> {
  const report: RetentionPassReport = { deletedSnapshots: 0, skippedBusy: 0, failed: 0 };
  const input = await readRetentionInput(ctx, ctx.clock());
  const verdicts = planRetention(input);
  for (const { key, owners } of condemned(verdicts)) {
    // A snapshot is its runtimes' (one provider, so one home): the node acting for them deletes it.
    const owner = input.sessions.get(owners[0]!);
    if (!owner || !actsOn(owner)) continue;
    try {
      const outcome = await deleteCondemned(ctx, key, owners);
      if (outcome === 'deleted') report.deletedSnapshots += 1;
      if (outcome === 'busy') report.skippedBusy += 1;
    } catch {
      report.failed += 1;
    }
  }
  return report;
}
