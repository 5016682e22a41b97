import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { removeTree } from '@runtimectl/testkit/server-process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { startE2BEmulator, type E2BEmulator } from '@runtimectl/e2b-emulator';
import { afterAll, expect, it } from 'vitest';
import {
  acknowledgedWorkProblems,
  closeEverythingProblems,
  duplicateWorkProblems,
  idempotentRetryProblems,
  usabilityProblems,
} from './crash-checks';
import { CrashLedger, type SentRequest } from './crash-ledger';
import { CrashTraffic } from './crash-traffic';
import { reconciliationCounts } from './daemon-http';
import { emulatorAccountingProblems } from './emulator-accounting';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';
import { SeededRandom } from './seeded-random';
import type { StoreFileRows } from './store-file-rows';

// The durability promise over real processes: runtimed (on the store the caller names, e2b
// provider on an E2B emulator started here) is SIGKILLed at random moments under concurrent
// traffic, restarted on the same state, and checked against everything it acknowledged.
// Rerun a failure with RUNTIMECTL_CRASH_SEED.

/** Where the daemon under test keeps its state, and how the test reads the store's own rows. */
export interface CrashStore {
  /** Flags and variables that point `runtimed` at the store (none: SQLite in the state directory). */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The store's sessions, checkpoints and open intents, read while the daemon runs or after it died. */
  readRows(stateDir: string): StoreFileRows | Promise<StoreFileRows>;
}

// The seed fixes the choices (operations, kill points, retries), not the timing.
const SEED = Number(process.env.RUNTIMECTL_CRASH_SEED ?? randomInt(2 ** 31 - 1));
const ROUNDS = 6;
const WORKERS = 4;
const MAX_LIVE_RUNTIMES = 16;
const KILL_AFTER_MS: [number, number] = [250, 1_500];
// Small provider latencies, so a kill often lands while a sandbox or snapshot is being made.
const LATENCY_MS = { create: 60, snapshot: 40, kill: 20, delete_template: 20 };

/**
 * A killed daemon's last requests still complete at E2B (as they would at the real one): wait
 * until the emulator's sandboxes and snapshots stop changing, so reconciliation sees the final
 * picture and the test compares against it.
 */
async function waitForQuietEmulator(e2b: E2BEmulator): Promise<void> {
  const picture = async () => {
    const state = await e2b.state();
    return [state.sandboxes.map((s) => s.sandboxId).sort(), state.snapshots.map((s) => s.snapshotId).sort()];
  };
  let previous = await picture();
  for (let stable = 0; stable < 3; ) {
    await sleep(150);
    const current = await picture();
    stable = isDeepStrictEqual(current, previous) ? stable + 1 : 0;
    previous = current;
  }
}

function countByOperation(requests: SentRequest[]): string {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.operation, (counts.get(request.operation) ?? 0) + 1);
  return [...counts].map(([operation, count]) => `${operation} ${count}`).join(', ') || 'none';
}

/** Registers the crash-restart tests for `store`; call it at the top level of a test file. */
export function crashRestartTests(store: CrashStore): void {
  const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-crash-'));
  const API_KEY = `e2b_${randomBytes(20).toString('hex')}`;
  let emulator: E2BEmulator | undefined;
  let daemon: RuntimedProcess | undefined;

  afterAll(async () => {
    await daemon?.stop('SIGKILL');
    await emulator?.close();
    removeTree(stateDir);
  }, 60_000);

  function startDaemon(e2b: E2BEmulator): Promise<RuntimedProcess> {
    return startRuntimed(
      ['--provider', 'e2b', ...store.args],
      {
        ...store.env,
        RUNTIMECTL_PROVIDERS_E2B_API_URL: e2b.apiUrl,
        RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: e2b.sandboxUrl,
        RUNTIMECTL_PROVIDERS_E2B_API_KEY_ENV: 'CRASH_TEST_E2B_KEY',
        CRASH_TEST_E2B_KEY: API_KEY,
      },
      stateDir,
    );
  }

  /** What the rounds found about Idempotency-Key retries, asserted by the second test. */
  const idempotency = { roundsChecked: 0, problems: [] as string[] };

  it(
    'every acknowledged operation survives SIGKILL at random moments, and after reconciliation E2B holds nothing the store does not account for',
    async () => {
      const random = new SeededRandom(SEED);
      const ledger = new CrashLedger();
      const summaries: string[] = [];
      try {
        emulator = await startE2BEmulator({ latencyMs: LATENCY_MS });
        daemon = await startDaemon(emulator);
        for (let round = 1; round <= ROUNDS; round += 1) {
          const traffic = new CrashTraffic({ url: daemon.url, ledger, random, round, workers: WORKERS, maxLiveRuntimes: MAX_LIVE_RUNTIMES });
          const killAfterMs = random.int(...KILL_AFTER_MS);
          traffic.start();
          await sleep(killAfterMs);
          traffic.halt();
          expect(daemon.alive(), `round ${round}: runtimed died on its own: ${daemon.stderr()}`).toBe(true);
          await daemon.stop('SIGKILL');
          await traffic.settled();
          await waitForQuietEmulator(emulator);
          const sent = ledger.sent.filter((request) => request.round === round);
          const unanswered = sent.filter((request) => request.answer === undefined);
          const acknowledged = sent.filter((request) => request.answer && request.answer.status < 300);

          daemon = await startDaemon(emulator);
          const reconciled = await reconciliationCounts(daemon.url);
          const problems = [...traffic.surprises, ...emulatorAccountingProblems(await emulator.state(), await store.readRows(stateDir))];
          problems.push(...(await acknowledgedWorkProblems(daemon.url, ledger)));
          // What a client would retry (every request whose answer it never got), plus a few that were acknowledged.
          const retries = [...unanswered, ...pickSome(random, acknowledged, 2)];
          const retryProblems = await idempotentRetryProblems(daemon.url, ledger, retries);
          retryProblems.push(...duplicateWorkProblems(await store.readRows(stateDir), new Set(retries.map((request) => request.key))));
          idempotency.problems.push(...retryProblems.map((problem) => `round ${round}: ${problem}`));
          problems.push(...(await usabilityProblems(daemon.url, ledger, WORKERS)));
          if (reconciled.error) problems.push(`reconciliation could not finish ${reconciled.error} steps: ${daemon.stderr()}`);

          summaries.push(
            `round ${round}: killed after ${killAfterMs} ms; acknowledged ${countByOperation(acknowledged)}; unanswered ${countByOperation(unanswered)}; ` +
              `reconciliation ${Object.entries(reconciled).map(([action, count]) => `${action}=${count}`).join(' ')}; ` +
              `retried ${retries.length}; runtimes ${countStatuses(ledger)}`,
          );
          console.log(`[crash-restart seed ${SEED}] ${summaries.at(-1)}`);
          expect(problems, `round ${round} (seed ${SEED})`).toEqual([]);
          idempotency.roundsChecked = round;
        }

        expect(await closeEverythingProblems(daemon.url), `closing everything (seed ${SEED})`).toEqual([]);
        const left = await emulator.state();
        expect(left.sandboxes.map((sandbox) => sandbox.sandboxId), 'sandboxes left at E2B').toEqual([]);
        expect(left.snapshots.map((snapshot) => snapshot.snapshotId), 'snapshots left at E2B').toEqual([]);
        const answered = ledger.sent.filter((request) => request.answer && request.answer.status < 300).length;
        console.log(`[crash-restart seed ${SEED}] ${ROUNDS} kills, ${answered} operations acknowledged, ${ledger.runtimes.size} runtimes, all closed and E2B empty`);
      } catch (error) {
        console.log(`crash-restart failed with seed ${SEED} (rerun: RUNTIMECTL_CRASH_SEED=${SEED})\n${summaries.join('\n')}`);
        throw error;
      }
    },
    180_000,
  );

  // Kept apart from the test above so a failure names the broken promise: the retries were made
  // (and their outcomes fed to the ledger) during the rounds above.
  it('a request retried with its Idempotency-Key after a crash is replayed or done once, never twice', () => {
    expect(idempotency.roundsChecked, 'the crash rounds above did not all run').toBe(ROUNDS);
    expect(idempotency.problems, `seed ${SEED} (rerun: RUNTIMECTL_CRASH_SEED=${SEED})`).toEqual([]);
  });
}

function pickSome<T>(random: SeededRandom, items: T[], count: number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(pool.splice(random.int(0, pool.length - 1), 1)[0]!);
  return picked;
}

function countStatuses(ledger: CrashLedger): string {
  const counts = new Map<string, number>();
  for (const entry of ledger.runtimes.values()) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${status} ${count}`).join(', ');
}
