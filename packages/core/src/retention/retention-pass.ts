import type { RuntimeFence } from '../store/fleet-store';
import type { CheckpointRecord, SessionRecord } from '../store/records';
import { underFence } from '../runtime/fenced-context';
import { lifecycleEvent } from '../runtime/lifecycle-events';
import type { ServiceContext } from '../runtime/service-context';
import { clearSnapshotFromRecords, type SnapshotKey } from '../runtime/snapshot-keepers';
import { planRetention, snapshotKeyOf, type RetentionInput, type RetentionVerdict } from './retention-plan';
import { effectivePolicy, isActive, type RetentionPolicy } from './retention-policy';

const PAGE = 1_000;

/** What one retention pass did. */
export interface RetentionPassReport {
  /** Provider snapshots deleted (their checkpoints' records stay, marked deleted). */
  deletedSnapshots: number;
  /** Snapshots left for the next pass: a runtime sharing them was busy, or an operation leased them. */
  skippedBusy: number;
  /** Snapshots whose delete the provider refused or failed: retried by the next pass. */
  failed: number;
}

async function allPages<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

const policyOf = (daemon: RetentionPolicy) => (session: SessionRecord) => effectivePolicy(daemon, session.retention);

/**
 * The plan's inputs for the whole store: every runtime, and every checkpoint whose snapshot
 * still exists — or nothing when no runtime has a policy (the pass then reads no checkpoint).
 */
export async function readRetentionInput(ctx: ServiceContext, now: number): Promise<RetentionInput> {
  const sessions = await allPages((cursor) => ctx.store.listSessions({ limit: PAGE, ...(cursor ? { cursor } : {}) }));
  const input = { now, policyOf: policyOf(ctx.retention.policy), sessions: new Map(sessions.map((s) => [s.runtimeId, s])) };
  if (!sessions.some((session) => isActive(input.policyOf(session)))) return { ...input, checkpoints: [] };
  const checkpoints = await allPages((cursor) => ctx.store.listSnapshottedCheckpoints({ limit: PAGE, ...(cursor ? { cursor } : {}) }));
  return { ...input, checkpoints };
}

/** What one snapshot's verdict depends on, read now: the runtimes sharing it (all their snapshotted checkpoints) and the live runtimes started from it. */
async function readSnapshotInput(ctx: ServiceContext, key: SnapshotKey, now: number): Promise<RetentionInput> {
  const sharing = await ctx.store.listCheckpointsBySnapshot(key.providerId, key.snapshotId);
  const owners = [...new Set(sharing.map((checkpoint) => checkpoint.runtimeId))];
  const sessions = new Map<string, SessionRecord>();
  const checkpoints: CheckpointRecord[] = [];
  for (const runtimeId of owners) {
    const session = await ctx.store.getSession(runtimeId);
    if (session) sessions.set(runtimeId, session);
    const own = await allPages((cursor) => ctx.store.listCheckpoints(runtimeId, { limit: PAGE, ...(cursor ? { cursor } : {}) }));
    checkpoints.push(...own.filter((checkpoint) => checkpoint.backendRef?.providerSnapshotId));
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
      await fenced.store.commit({ events: verdicts.map((verdict) => policyEvent(verdict, now)) });
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
 * One retention pass (the maintenance lease holder runs it every `retention.intervalMs`): plans
 * over the whole store, then deletes each condemned snapshot (see deleteCondemned). Never throws
 * for one snapshot: a failure is counted and the next pass tries again.
 */
export async function applyRetention(ctx: ServiceContext): Promise<RetentionPassReport> {
  const report: RetentionPassReport = { deletedSnapshots: 0, skippedBusy: 0, failed: 0 };
  const verdicts = planRetention(await readRetentionInput(ctx, ctx.clock()));
  for (const { key, owners } of condemned(verdicts)) {
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
