import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RetentionPolicy, SessionRecord, SnapshottedCheckpoint } from '@runtimectl/core';
import { effectivePolicy } from '../src/retention/retention-policy';
import { planRetention, snapshotKeyOf, type RetentionInput } from '../src/retention/retention-plan';

const NOW = 1_000_000;

/** A random fleet of lineages: runtimes with checkpoints (some sharing snapshots), pins, uses, pauses, clean and source snapshots. */
const lineages = fc
  .record({
    runtimes: fc.array(
      fc.record({
        status: fc.constantFrom('idle', 'paused', 'closed', 'failed'),
        checkpoints: fc.array(
          fc.record({ snapshot: fc.nat(5), ageMs: fc.nat(50_000), usedAgoMs: fc.option(fc.nat(50_000)), pinned: fc.boolean() }),
          { maxLength: 6 },
        ),
        pausedAt: fc.nat(6),
        cleanAt: fc.option(fc.nat(6)),
        sourceSnapshot: fc.option(fc.nat(5)),
        override: fc.option(fc.record({ keepLast: fc.option(fc.integer({ min: 1, max: 4 })), expireUnusedAfterMs: fc.option(fc.nat(40_000)) }, { requiredKeys: [] })),
      }),
      { maxLength: 6 },
    ),
    daemon: fc.record({ keepLast: fc.option(fc.integer({ min: 1, max: 4 })), expireUnusedAfterMs: fc.option(fc.nat(40_000)) }),
  })
  .map(({ runtimes, daemon }) => {
    const sessions = new Map<string, SessionRecord>();
    const checkpoints: SnapshottedCheckpoint[] = [];
    runtimes.forEach((runtime, r) => {
      const runtimeId = `rt-${r}`;
      const ids = runtime.checkpoints.map((_, c) => `cp-${String(r).padStart(2, '0')}-${String(c).padStart(2, '0')}`);
      const session = {
        runtimeId,
        status: runtime.status,
        pausedCheckpointId: runtime.status === 'paused' ? (ids[runtime.pausedAt] ?? null) : null,
        backend:
          runtime.status === 'paused'
            ? null
            : {
                backendId: `bkd-${r}`,
                providerId: 'p',
                resource: {},
                sourceSnapshotId: runtime.sourceSnapshot === null ? null : `s${runtime.sourceSnapshot}`,
                cleanCheckpointId: runtime.cleanAt === null ? null : (ids[runtime.cleanAt] ?? null),
              },
        retention: runtime.override,
      } as unknown as SessionRecord;
      sessions.set(runtimeId, session);
      runtime.checkpoints.forEach((checkpoint, c) => {
        checkpoints.push({
          checkpointId: ids[c]!,
          runtimeId,
          createdAtMs: NOW - checkpoint.ageMs,
          lastUsedAtMs: checkpoint.usedAgoMs === null ? null : NOW - checkpoint.usedAgoMs,
          pinned: checkpoint.pinned,
          backendRef: { providerId: 'p', providerSnapshotId: `s${checkpoint.snapshot}` },
        } as unknown as SnapshottedCheckpoint);
      });
    });
    const input: RetentionInput = {
      now: NOW,
      policyOf: (session) => effectivePolicy(daemon as RetentionPolicy, session.retention),
      sessions,
      checkpoints,
    };
    return input;
  });

/** Every reason the rules give for never deleting checkpoint `c`'s snapshot. */
function keepersOf(input: RetentionInput, checkpoint: SnapshottedCheckpoint): string[] {
  const session = input.sessions.get(checkpoint.runtimeId)!;
  const policy = input.policyOf(session);
  const newest = input.checkpoints
    .filter((other) => other.runtimeId === checkpoint.runtimeId)
    .map((other) => other.checkpointId)
    .sort()
    .reverse();
  const snapshot = checkpoint.backendRef!.providerSnapshotId!;
  const keepers: string[] = [];
  if (checkpoint.pinned) keepers.push('pinned');
  if (session.status === 'paused' && session.pausedCheckpointId === checkpoint.checkpointId) keepers.push('paused');
  if (session.status !== 'closed' && session.backend?.cleanCheckpointId === checkpoint.checkpointId) keepers.push('clean');
  if ([...input.sessions.values()].some((other) => other.status !== 'closed' && other.backend?.sourceSnapshotId === snapshot)) keepers.push('backend_source');
  if (policy.keepLast === null && policy.expireUnusedAfterMs === null) keepers.push('no_policy');
  if (policy.keepLast !== null && newest.indexOf(checkpoint.checkpointId) < policy.keepLast) keepers.push('keep_last');
  const lastUsed = Math.max(checkpoint.createdAtMs, checkpoint.lastUsedAtMs ?? 0);
  if (policy.expireUnusedAfterMs !== null && NOW - lastUsed < policy.expireUnusedAfterMs) keepers.push('recently_used');
  return keepers;
}

describe('retention plan (property: random lineages and policies)', () => {
  it('never deletes a snapshot that any checkpoint sharing it has a keeper for (pin, pause point, live backend source, clean, keep window, recent use, no policy)', () => {
    fc.assert(
      fc.property(lineages, (input) => {
        const verdicts = planRetention(input);
        for (const verdict of verdicts.filter((v) => v.delete)) {
          const sharing = input.checkpoints.filter((c) => snapshotKeyOf(c.backendRef!.providerId, c.backendRef!.providerSnapshotId!) === snapshotKeyOf(verdict.providerId, verdict.snapshotId));
          for (const checkpoint of sharing) expect(keepersOf(input, checkpoint)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('deletes every snapshot that no checkpoint sharing it has a keeper for, and all verdicts on one snapshot agree', () => {
    fc.assert(
      fc.property(lineages, (input) => {
        const verdicts = planRetention(input);
        expect(verdicts).toHaveLength(input.checkpoints.length);
        const bySnapshot = new Map<string, boolean[]>();
        for (const verdict of verdicts) {
          const key = snapshotKeyOf(verdict.providerId, verdict.snapshotId);
          bySnapshot.set(key, [...(bySnapshot.get(key) ?? []), verdict.delete]);
        }
        for (const [key, decisions] of bySnapshot) {
          expect(new Set(decisions).size).toBe(1);
          const sharing = input.checkpoints.filter((c) => snapshotKeyOf(c.backendRef!.providerId, c.backendRef!.providerSnapshotId!) === key);
          const unkept = sharing.every((checkpoint) => keepersOf(input, checkpoint).length === 0);
          expect(decisions[0]).toBe(unkept);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('retention plan (examples)', () => {
  const checkpoint = (id: string, runtimeId: string, snapshot: string, ageMs: number): SnapshottedCheckpoint =>
    ({ checkpointId: id, runtimeId, createdAtMs: NOW - ageMs, backendRef: { providerId: 'p', providerSnapshotId: snapshot } }) as unknown as SnapshottedCheckpoint;
  const closed = { runtimeId: 'a', status: 'closed', backend: null, pausedCheckpointId: null, keepSnapshots: true } as unknown as SessionRecord;

  it('keep_last 2 deletes the older snapshots of a runtime and says why each is kept or deleted', () => {
    const verdicts = planRetention({
      now: NOW,
      policyOf: () => ({ keepLast: 2, expireUnusedAfterMs: null }),
      sessions: new Map([['a', closed]]),
      checkpoints: [checkpoint('cp-1', 'a', 's1', 30), checkpoint('cp-2', 'a', 's2', 20), checkpoint('cp-3', 'a', 's3', 10)],
    });
    expect(verdicts.map((v) => [v.checkpointId, v.delete, v.reasons])).toEqual([
      ['cp-1', true, ['outside_keep_last']],
      ['cp-2', false, ['keep_last']],
      ['cp-3', false, ['keep_last']],
    ]);
  });

  it('with both rules, an old snapshot outside the window is kept while it was used recently', () => {
    const used = { ...checkpoint('cp-1', 'a', 's1', 50_000), lastUsedAtMs: NOW - 10 };
    const verdicts = planRetention({
      now: NOW,
      policyOf: () => ({ keepLast: 1, expireUnusedAfterMs: 1_000 }),
      sessions: new Map([['a', closed]]),
      checkpoints: [used, checkpoint('cp-2', 'a', 's2', 40_000), checkpoint('cp-3', 'a', 's3', 10)],
    });
    expect(verdicts.map((v) => [v.checkpointId, v.delete, v.reasons])).toEqual([
      ['cp-1', false, ['recently_used']],
      ['cp-2', true, ['outside_keep_last', 'unused']],
      ['cp-3', false, ['keep_last', 'recently_used']],
    ]);
  });
});
