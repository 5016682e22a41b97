// How much the daemon adds to E2B's own time for checkpoint and checkout, measured in one run.
//
// Three processes: an E2B emulator with the seed's measured latencies injected (snapshot 1520 ms,
// create 2340 ms), a real `runtimed` with [providers.e2b] pointed at it, and this script. Each
// round measures, interleaved (the order flips every round):
//   - over HTTP with curl's time_total (as the seed did): POST /api/v1/runtimes/checkpoint of a
//     dirty runtime, then POST /api/v1/runtimes/checkout of that checkpoint;
//   - directly with the e2b SDK against the same emulator, the calls the provider makes for them:
//     Sandbox.createSnapshot of a dirty sandbox, then Sandbox.create(snapshotId).
// Daemon overhead = HTTP time − direct SDK time, as a % of the direct SDK time (the provider
// time). Medians over the rounds after one warm-up round. Then: N checkpoints of a clean runtime,
// counting snapshot calls at the emulator (expected: 1, then 0 more).
// N-way checkout: each round also checks the same checkpoint out NWAY_COUNT ways in one request
// (`count`, the daemon's checkout parallelism set to NWAY_COUNT) and reports its wall time
// against the round's single checkout (target ≤ 1.5×: the creates run in parallel), with the
// E2B calls it made (counted at the emulator). Issue 37: E2B's fork is given the same 2340 ms,
// and each round also times, directly with the SDK, the two ways E2B could make NWAY_COUNT
// sandboxes of one snapshot: NWAY_COUNT parallel creates, and one create then one
// `Sandbox.fork` of it with count NWAY_COUNT − 1 (docs/e2b-calls.md says why checkout uses the first).
//
// Run after building the daemon and its dependencies:
//   pnpm --filter @runtimectl/daemon... build && node packages/provider-e2b/bench/e2b-overhead.bench.mjs
// Environment: ROUNDS (default 7), CLEAN_CHECKPOINTS (default 10), NWAY_COUNT (default 16).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Sandbox } from 'e2b';
import { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';

const LATENCY = { snapshot: 1520, create: 2340, fork: 2340 };
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CLEAN_CHECKPOINTS = Number(process.env.CLEAN_CHECKPOINTS ?? 10);
const NWAY_COUNT = Number(process.env.NWAY_COUNT ?? 16);
const NWAY_TARGET_RATIO = 1.5;
const TOKEN = `bench-${randomBytes(12).toString('hex')}`;
const API_KEY = `e2b_${randomBytes(20).toString('hex')}`;
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const EMULATOR_BIN = join(repo, 'packages/e2b-emulator/dist/bin.js');
const RUNTIMED = join(repo, 'apps/daemon/dist/main.js');
const run = promisify(execFile);

for (const file of [EMULATOR_BIN, RUNTIMED]) {
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (pnpm --filter @runtimectl/daemon... build)`);
}

/** Spawns a program and resolves with its first stdout line matching `pattern`. */
function startProcess(args, env, pattern) {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((candidate) => pattern.test(candidate));
      if (line) resolve({ child, line });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

const stop = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));

const emulatorProcess = await startProcess(
  [EMULATOR_BIN, '--port', '0', ...Object.entries(LATENCY).flatMap(([operation, ms]) => ['--latency', `${operation}=${ms}`])],
  {},
  /^\{"apiUrl"/,
);
const emulatorInfo = JSON.parse(emulatorProcess.line);
const admin = new E2BEmulatorAdminClient(emulatorInfo.apiUrl);
const daemonProcess = await startProcess(
  [RUNTIMED, '--port', '0', '--provider', 'e2b', '--state-dir', mkdtempSync(join(tmpdir(), 'e2b-bench-state-'))],
  {
    RUNTIMECTL_PROVIDERS_E2B_API_URL: emulatorInfo.apiUrl,
    RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: emulatorInfo.sandboxUrl,
    E2B_API_KEY: API_KEY,
    RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'BENCH_TOKEN',
    BENCH_TOKEN: TOKEN,
    RUNTIMECTL_RUNTIMES_CHECKOUT_PARALLELISM: String(NWAY_COUNT),
  },
  / listening on /,
);
const daemonUrl = / listening on (http:\/\/\S+)/.exec(daemonProcess.line)[1];
const sdk = { apiKey: API_KEY, apiUrl: emulatorInfo.apiUrl, sandboxUrl: emulatorInfo.sandboxUrl, requestTimeoutMs: 60_000 };

/** POST with curl, as the seed measured: resolves with the JSON body, time_total (ms) and server-timing. */
async function curlPost(path, body) {
  const { stdout } = await run('curl', [
    '-sS', '-X', 'POST', `${daemonUrl}${path}`,
    '-H', `authorization: Bearer ${TOKEN}`, '-H', 'content-type: application/json',
    '--data-binary', JSON.stringify(body),
    '-w', '\n%{http_code}\n%{time_total}\n%header{server-timing}',
  ]);
  const lines = stdout.split('\n');
  const serverTiming = lines.pop();
  const totalMs = Number(lines.pop()) * 1000;
  const status = Number(lines.pop());
  const json = JSON.parse(lines.join('\n'));
  if (status !== 200) throw new Error(`${path} answered ${status}: ${JSON.stringify(json)}`);
  const providerMs = Number(/provider;dur=([\d.]+)/.exec(serverTiming ?? '')?.[1] ?? NaN);
  return { json, totalMs, providerMs };
}

async function timed(fn) {
  const startedAt = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - startedAt };
}

const text = (value) => Buffer.from(value).toString('base64');

async function daemonRound(index) {
  const runtimeId = `bench-${index}-${randomBytes(4).toString('hex')}`;
  await curlPost('/api/v1/runtimes/open', { runtime_id: runtimeId, conversation_id: 'bench', sender_id: 'bench' });
  await curlPost('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'state.txt', content_base64: text(`round ${index}`) });
  const checkpoint = await curlPost('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
  if (checkpoint.json.reused_backend_snapshot) throw new Error('the measured checkpoint reused a snapshot: it must be dirty');
  const checkout = await curlPost('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.json.checkpoint_id });
  const callsBefore = (await admin.state()).calls;
  const nway = await curlPost('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.json.checkpoint_id, count: NWAY_COUNT });
  const callsAfter = (await admin.state()).calls;
  nway.calls = { create: (callsAfter.create ?? 0) - (callsBefore.create ?? 0), fork: (callsAfter.fork ?? 0) - (callsBefore.fork ?? 0) };
  const failed = nway.json.results.filter((child) => !child.runtime);
  if (nway.json.results.length !== NWAY_COUNT || failed.length > 0) throw new Error(`the ${NWAY_COUNT}-way checkout lost children: ${JSON.stringify(failed)}`);
  await curlPost('/api/v1/runtimes/close', { runtime_id: runtimeId, cascade: true });
  return { checkpoint, checkout, nway };
}

async function directRound(index) {
  const sandbox = await Sandbox.create('base', { ...sdk, timeoutMs: 600_000 });
  await sandbox.files.write('/home/user/workspace/state.txt', `round ${index}`);
  const name = `bench-direct-${index}-${randomBytes(4).toString('hex')}`;
  const snapshot = await timed(() => Sandbox.createSnapshot(sandbox.sandboxId, { ...sdk, name }));
  const child = await timed(() => Sandbox.create(snapshot.value.snapshotId, { ...sdk, timeoutMs: 600_000 }));
  // NWAY_COUNT sandboxes of the snapshot: parallel creates, then one create and one fork of it.
  const creates = await timed(() => Promise.all(Array.from({ length: NWAY_COUNT }, () => Sandbox.create(snapshot.value.snapshotId, { ...sdk, timeoutMs: 600_000 }))));
  const createThenFork = await timed(async () => {
    const first = await Sandbox.create(snapshot.value.snapshotId, { ...sdk, timeoutMs: 600_000 });
    return [first, ...(await Sandbox.fork(first.sandboxId, { ...sdk, count: NWAY_COUNT - 1, timeoutMs: 600_000 }))];
  });
  const forkErrors = createThenFork.value.filter((made) => made instanceof Error);
  if (forkErrors.length > 0) throw new Error(`a fork failed: ${forkErrors[0].message}`);
  await Promise.all([...creates.value, ...createThenFork.value].map((made) => Sandbox.kill(made.sandboxId, sdk)));
  await Sandbox.kill(child.value.sandboxId, sdk);
  await Sandbox.kill(sandbox.sandboxId, sdk);
  await Sandbox.deleteSnapshot(snapshot.value.snapshotId, sdk);
  return { snapshotMs: snapshot.ms, createMs: child.ms, parallelCreatesMs: creates.ms, createThenForkMs: createThenFork.ms };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

const rounds = [];
try {
  for (let index = 0; index <= ROUNDS; index += 1) {
    // The order flips every round, so drift in the machine's load does not favour one side.
    const [daemon, direct] = index % 2 === 0
      ? [await daemonRound(index), await directRound(index)]
      : await directRound(index).then(async (directFirst) => [await daemonRound(index), directFirst]);
    if (index === 0) continue; // warm-up: first connections, first bash -l, JIT
    rounds.push({ daemon, direct });
    process.stderr.write(
      `round ${index}: checkpoint http ${fixed(daemon.checkpoint.totalMs)} ms / sdk ${fixed(direct.snapshotMs)} ms; ` +
        `checkout http ${fixed(daemon.checkout.totalMs)} ms / sdk ${fixed(direct.createMs)} ms; ` +
        `${NWAY_COUNT}-way checkout http ${fixed(daemon.nway.totalMs)} ms (${daemon.nway.calls.create} creates, ${daemon.nway.calls.fork} forks); ` +
        `sdk ${NWAY_COUNT} parallel creates ${fixed(direct.parallelCreatesMs)} ms / create + fork ${fixed(direct.createThenForkMs)} ms\n`,
    );
  }

  // Clean runtime: the first checkpoint snapshots, the next ones reuse it.
  const runtimeId = `bench-clean-${randomBytes(4).toString('hex')}`;
  await curlPost('/api/v1/runtimes/open', { runtime_id: runtimeId, conversation_id: 'bench', sender_id: 'bench' });
  await curlPost('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'state.txt', content_base64: text('clean') });
  const before = (await admin.state()).calls.snapshot;
  await curlPost('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
  const afterFirst = (await admin.state()).calls.snapshot;
  const cleanTimes = [];
  for (let index = 0; index < CLEAN_CHECKPOINTS; index += 1) {
    const result = await curlPost('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    if (!result.json.reused_backend_snapshot) throw new Error('a clean checkpoint did not reuse the snapshot');
    cleanTimes.push(result.totalMs);
  }
  const afterClean = (await admin.state()).calls.snapshot;
  await curlPost('/api/v1/runtimes/close', { runtime_id: runtimeId });
  const leftover = await admin.state();

  const summarise = (label, httpMs, sdkMs, injectedMs, providerMs) => {
    const http = median(httpMs);
    const direct = median(sdkMs);
    const overheads = httpMs.map((ms, index) => ms - sdkMs[index]);
    const percents = overheads.map((ms, index) => (ms / sdkMs[index]) * 100);
    return {
      operation: label,
      injected_ms: injectedMs,
      direct_sdk_ms: Number(fixed(direct)),
      emulator_own_ms: Number(fixed(direct - injectedMs)),
      http_time_total_ms: Number(fixed(http)),
      daemon_provider_ms: Number(fixed(median(providerMs))),
      daemon_overhead_ms: Number(fixed(median(overheads))),
      daemon_overhead_pct: Number(fixed(median(percents), 2)),
      overhead_pct_range: [Number(fixed(Math.min(...percents), 2)), Number(fixed(Math.max(...percents), 2))],
      target_pct: 5,
      met: median(percents) <= 5,
    };
  };
  const report = {
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, memory_gib: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version, loadavg_at_end: loadavg().map((load) => Number(load.toFixed(2))) },
    rounds: rounds.length,
    results: [
      summarise('checkpoint (dirty)', rounds.map((r) => r.daemon.checkpoint.totalMs), rounds.map((r) => r.direct.snapshotMs), LATENCY.snapshot, rounds.map((r) => r.daemon.checkpoint.providerMs)),
      summarise('checkout', rounds.map((r) => r.daemon.checkout.totalMs), rounds.map((r) => r.direct.createMs), LATENCY.create, rounds.map((r) => r.daemon.checkout.providerMs)),
    ],
    nway_checkout: (() => {
      const ratios = rounds.map((r) => r.daemon.nway.totalMs / r.daemon.checkout.totalMs);
      return {
        count: NWAY_COUNT,
        parallelism: NWAY_COUNT,
        injected_create_ms: LATENCY.create,
        injected_fork_ms: LATENCY.fork,
        nway_calls: rounds.at(-1)?.daemon.nway.calls ?? null,
        direct_parallel_creates_ms: Number(fixed(median(rounds.map((r) => r.direct.parallelCreatesMs)))),
        direct_create_then_fork_ms: Number(fixed(median(rounds.map((r) => r.direct.createThenForkMs)))),
        single_checkout_http_ms: Number(fixed(median(rounds.map((r) => r.daemon.checkout.totalMs)))),
        nway_checkout_http_ms: Number(fixed(median(rounds.map((r) => r.daemon.nway.totalMs)))),
        nway_provider_ms: Number(fixed(median(rounds.map((r) => r.daemon.nway.providerMs)))),
        single_rounds_ms: rounds.map((r) => Number(fixed(r.daemon.checkout.totalMs))),
        nway_rounds_ms: rounds.map((r) => Number(fixed(r.daemon.nway.totalMs))),
        ratios: ratios.map((ratio) => Number(fixed(ratio, 3))),
        ratio: Number(fixed(median(ratios), 3)),
        target_ratio: NWAY_TARGET_RATIO,
        met: median(ratios) <= NWAY_TARGET_RATIO,
      };
    })(),
    clean_checkpoints: {
      first_checkpoint_snapshot_calls: afterFirst - before,
      following_checkpoints: CLEAN_CHECKPOINTS,
      following_snapshot_calls: afterClean - afterFirst,
      following_median_http_ms: Number(fixed(median(cleanTimes))),
    },
    leftovers: { sandboxes: leftover.sandboxes.length, snapshots: leftover.snapshots.length },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await stop(daemonProcess.child);
  await stop(emulatorProcess.child);
}
