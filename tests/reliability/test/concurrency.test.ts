import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2BRig, type E2BRig } from '../support/e2b-rig';
import { writeFigures } from '../support/figures';
import { checkInvariants, eventually, listAllRuntimes } from '../support/invariants';
import { countBy, latencyPercentiles, runMixedWorkload, SEED_FILE, unexplainedBusy, WorkloadPool } from '../support/mixed-workload';
import { checkpoint, closeAll, openRuntime, writeText } from '../support/runtime-steps';

// 50 clients on 20 runtimes (plus the checkout children they create) against one daemon on the
// E2B emulator, for a bounded time; then the invariants of core's property test, checked from
// outside through the API and the emulator's state.
const CLIENTS = 50;
const RUNTIMES = 20;
const MAX_CHILDREN = 20;
const DURATION_MS = 12_000;
const SEED = 20261129;

/** What a correct control plane may answer a valid request racing with others. */
const ACCEPTED = new Set(['ok', 'session_busy', 'runtime_paused', 'runtime_not_paused', 'runtime_closed', 'snapshot_in_use', 'checkpoint_snapshot_deleted']);

let rig: E2BRig;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  rig = await startE2BRig();
});

afterAll(async () => {
  writeFigures('concurrency', figures);
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (rig) expect(await rig.stop(), 'runtimed exit code').toBe(0);
});

describe('mixed operations from many clients', () => {
  it(`${CLIENTS} clients on ${RUNTIMES} runtimes: no 5xx, session_busy only on true overlaps, invariants hold, nothing leaks`, async () => {
    const roots: string[] = [];
    for (let index = 0; index < RUNTIMES; index += 1) {
      const runtimeId = await openRuntime(rig.api);
      await writeText(rig.api, runtimeId, SEED_FILE, `seed ${index}`);
      roots.push(runtimeId);
    }
    const pool = new WorkloadPool(roots, RUNTIMES + MAX_CHILDREN);
    const startedAt = performance.now();
    const records = await runMixedWorkload(rig.api, pool, { clients: CLIENTS, durationMs: DURATION_MS, seed: SEED, maxOperationsPerClient: 2_000 });
    const elapsedMs = performance.now() - startedAt;

    const byCode = countBy(records, (record) => record.outcome);
    const unexpected = records.filter((record) => !ACCEPTED.has(record.outcome));
    const busyWithoutOverlap = unexplainedBusy(records);
    Object.assign(figures, {
      clients: CLIENTS,
      runtimesOpened: RUNTIMES,
      checkoutChildren: pool.runtimes.length - RUNTIMES,
      durationMs: DURATION_MS,
      elapsedMs: Math.round(elapsedMs),
      seed: SEED,
      operations: records.length,
      completedOk: byCode.ok ?? 0,
      byOperation: countBy(records, (record) => record.operation),
      byCode,
      byOperationAndCode: countBy(records, (record) => `${record.operation} ${record.outcome}`),
      sessionBusy: records.filter((record) => record.outcome === 'session_busy').length,
      sessionBusyWithoutOverlap: busyWithoutOverlap.length,
      latencyMs: latencyPercentiles(records),
      daemonRssBytes: rig.daemon.rssBytes(),
    });

    expect(records.filter((record) => record.status >= 500), 'no 5xx').toEqual([]);
    expect(unexpected.map((record) => `${record.operation} → ${record.outcome}`), 'only answers a race can explain').toEqual([]);
    expect(busyWithoutOverlap, 'session_busy without an overlapping request on that runtime').toEqual([]);
    expect(byCode.ok ?? 0, 'work got done').toBeGreaterThan(records.length / 2);
    expect(rig.daemon.alive()).toBe(true);

    const report = await eventually(() => checkInvariants(rig.api, rig.admin), 20_000);
    Object.assign(figures, { invariantsChecked: { runtimes: report.runtimes, sandboxes: report.sandboxes, snapshots: report.snapshots } });
    expect(report.problems).toEqual([]);

    await closeAll(rig.api, pool.runtimes);
    const left = await eventually(async () => {
      const state = await rig.admin.state();
      return { problems: [...state.sandboxes.map((s) => `sandbox ${s.sandboxId}`), ...state.snapshots.map((s) => `snapshot ${s.snapshotId}`)] };
    }, 20_000);
    expect(left.problems, 'left at E2B after closing every runtime').toEqual([]);
  }, 180_000);
});

describe('the same checkout raced with one Idempotency-Key', () => {
  it('two clients, five rounds, and ten clients once: one child each time, every caller gets it', async () => {
    // E2B's create is slowed so that the racing requests are surely in flight together.
    await rig.admin.setLatency('create', 400);
    const rounds: Array<{ racers: number; children: number; replayed: number }> = [];
    try {
      for (const racers of [2, 2, 2, 2, 2, 10]) {
        const source = await openRuntime(rig.api);
        await writeText(rig.api, source, SEED_FILE, 'source');
        const checkpointId = await checkpoint(rig.api, source);
        const key = randomUUID();
        const replies = await Promise.all(
          Array.from({ length: racers }, () =>
            rig.api.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpointId }, { headers: { 'idempotency-key': key }, timeoutMs: 60_000 }),
          ),
        );
        expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
        const childIds = new Set(replies.map((reply) => (reply.json as { runtime: { runtime_id: string } }).runtime.runtime_id));
        expect(childIds.size, 'every caller got the same child').toBe(1);
        const children = (await listAllRuntimes(rig.api)).filter((runtime) => runtime.runtime_id.startsWith(`${source}:checkout:`));
        expect(children.map((child) => child.runtime_id)).toEqual([...childIds]);
        const [childId] = childIds;
        const sandboxes = (await rig.admin.state()).sandboxes.filter((sandbox) => sandbox.metadata.runtimectl_runtime_id === childId);
        expect(sandboxes, 'one sandbox for the one child').toHaveLength(1);
        const replayed = replies.filter((reply) => reply.headers.get('idempotent-replayed') === 'true').length;
        expect(replayed, 'all but the first answer are replays').toBe(racers - 1);
        rounds.push({ racers, children: children.length, replayed });
        await closeAll(rig.api, [source]);
      }
    } finally {
      await rig.admin.setLatency('create', 0);
    }
    figures.idempotentCheckoutRaces = rounds;
    expect((await eventually(() => checkInvariants(rig.api, rig.admin))).problems).toEqual([]);
  }, 120_000);
});
