// New measurements: checkpoint of a DIRTY runtime at 1 and 50 connections, and checkout, pause
// and resume at 1 connection, against a real `runtimed` (memory store, memory provider, bearer
// auth, logs on) next to two references: the bare fastify route of
// packages/server-http/bench/bare-server.mjs (at 1 connection) and the hand-minimal server of
// minimal-api-server.mjs (`checkpoint-minimal`: the required per-request features assembled by
// hand in front of a canned checkpoint answer; at 50 connections), and for the dirty checkpoint
// at 50 connections its like-for-like reference, minimal-work-server.mjs (`work-minimal`: the same
// hand-assembled features in front of the same work — core's RuntimeService, memory store and
// provider — replaying the same "write-file, checkpoint"; issue 32 item 14). All servers are
// pinned to core 0, the load generator to core 1. Each round starts fresh processes.
//
// How every checkpoint is dirty: each connection replays "write-file, then checkpoint" on its
// own runtime, one request in flight, so a write lands before every checkpoint; the load
// generator parses every checkpoint answer and the run fails if one reused a snapshot.
// Checkout, pause, resume: one connection replays "write-file, pause, resume, checkout" (the
// write makes every pause take a real snapshot; checkout branches from a fixed checkpoint).
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { startLoadGenerator } from '../load-client.mjs';
import { cpuSecondsOf, repoPath, startJsonUrlServer, startRuntimed, stopChild } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { median } from '../stats.mjs';

const BARE_SERVER = repoPath('packages', 'server-http', 'bench', 'bare-server.mjs');
const MINIMAL_SERVER = repoPath('packages', 'server-http', 'bench', 'minimal-api-server.mjs');
const WORK_MINIMAL_SERVER = repoPath('packages', 'server-http', 'bench', 'minimal-work-server.mjs');
const MANY = 50;

const runtimeIdOf = (index) => `bench-${String(index).padStart(3, '0')}`;
const post = (step, path, body, extra = {}) => ({ step, method: 'POST', path: `/api/v1/runtimes/${path}`, body: JSON.stringify(body), ...extra });
const write = (runtimeId) => post('write-file', 'write-file', { runtime_id: runtimeId, path: 'turn.txt', content_base64: base64('turn') });
const dirtyCheckpoint = (runtimeId) => [write(runtimeId), post('checkpoint', 'checkpoint', { runtime_id: runtimeId }, { expectDirtyCheckpoint: true })];

/** Opens the runtimes, each written to and checkpointed once (8 at a time); returns a checkpoint id. */
async function prepare(api) {
  const prepareOne = async (runtimeId) => {
    await api.post('/api/v1/runtimes/open', { runtime_id: runtimeId, conversation_id: 'bench', sender_id: 'bench' });
    await api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'seed.txt', content_base64: base64('seed') });
    return (await api.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId })).checkpoint_id;
  };
  const ids = [...Array.from({ length: MANY }, (_, index) => runtimeIdOf(index)), 'ops'];
  const checkpointIds = [];
  for (let start = 0; start < ids.length; start += 8) checkpointIds.push(...(await Promise.all(ids.slice(start, start + 8).map(prepareOne))));
  return checkpointIds[0];
}

/**
 * A load ends by dropping its connections, possibly with a request still running in the daemon
 * (which then completes it): wait until none of `runtimeIds` has an operation in flight, and
 * resume the one a cut-short "pause, resume" left paused, so the next load starts from idle.
 */
async function settle(api, runtimeIds) {
  for (const runtimeId of runtimeIds) {
    for (;;) {
      const { runtime } = await api.get(`/api/v1/runtimes/${encodeURIComponent(runtimeId)}`);
      if (runtime.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      if (runtime.status === 'paused') await api.post('/api/v1/runtimes/resume', { runtime_id: runtimeId });
      break;
    }
  }
}

function scenarios({ bareUrl, minimalUrl, workMinimalUrl, daemonUrl }, headers, checkpointId) {
  const bare = { server: 'bare', url: bareUrl, headers: {}, sequences: [[{ step: 'bare', method: 'GET', path: '/bare' }]] };
  const manyRuntimes = Array.from({ length: MANY }, (_, index) => runtimeIdOf(index));
  return [
    { key: 'bare@1', connections: 1, ...bare },
    { key: 'dirty-checkpoint@1', connections: 1, server: 'daemon', url: daemonUrl, headers, runtimes: [runtimeIdOf(0)], sequences: [dirtyCheckpoint(runtimeIdOf(0))] },
    {
      key: 'operations@1',
      connections: 1,
      server: 'daemon',
      url: daemonUrl,
      headers,
      runtimes: ['ops'],
      sequences: [[write('ops'), post('pause', 'pause', { runtime_id: 'ops' }), post('resume', 'resume', { runtime_id: 'ops' }), post('checkout', 'checkout', { checkpoint_id: checkpointId })]],
    },
    { key: `bare@${MANY}`, connections: MANY, ...bare },
    {
      key: `minimal@${MANY}`,
      connections: MANY,
      server: 'minimal',
      url: minimalUrl,
      headers,
      sequences: manyRuntimes.map((runtimeId) => [post('checkpoint', 'checkpoint', { runtime_id: runtimeId })]),
    },
    {
      key: `work-minimal@${MANY}`,
      connections: MANY,
      server: 'workMinimal',
      url: workMinimalUrl,
      headers,
      sequences: manyRuntimes.map(dirtyCheckpoint),
    },
    {
      key: `dirty-checkpoint@${MANY}`,
      connections: MANY,
      server: 'daemon',
      url: daemonUrl,
      headers,
      runtimes: manyRuntimes,
      sequences: manyRuntimes.map(dirtyCheckpoint),
    },
  ];
}

async function oneRound(round, { profile, tmpRoot, loadGenerator, log }) {
  const roundStartedAt = performance.now();
  const token = randomBytes(24).toString('hex');
  const stateDir = mkdtempSync(join(tmpRoot, 'http-state-'));
  const started = await Promise.allSettled([
    startJsonUrlServer(BARE_SERVER, { core: 0 }),
    startJsonUrlServer(MINIMAL_SERVER, { core: 0, env: { BENCH_TOKEN: token } }),
    startJsonUrlServer(WORK_MINIMAL_SERVER, { core: 0, env: { BENCH_TOKEN: token, BENCH_RUNTIMES: String(MANY) } }),
    startRuntimed({
      args: ['--store', 'memory', '--provider', 'memory', '--state-dir', stateDir],
      env: { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'BENCH_TOKEN', BENCH_TOKEN: token },
      core: 0,
    }),
  ]);
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await Promise.all(started.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => stopChild(outcome.value.child)));
    throw failed.reason;
  }
  const [bare, minimal, workMinimal, daemon] = started.map((outcome) => outcome.value);
  const pids = { bare: bare.child.pid, minimal: minimal.child.pid, workMinimal: workMinimal.child.pid, daemon: daemon.child.pid };
  try {
    const api = apiClient(daemon.url, token);
    const startedMs = performance.now() - roundStartedAt;
    const checkpointId = await prepare(api);
    log(`round ${round + 1}: servers started in ${(startedMs / 1000).toFixed(1)} s, runtimes prepared in ${((performance.now() - roundStartedAt - startedMs) / 1000).toFixed(1)} s`);
    const list = scenarios({ bareUrl: bare.url, minimalUrl: minimal.url, workMinimalUrl: workMinimal.url, daemonUrl: daemon.url }, api.headers, checkpointId);
    if (profile.http.warmupSec === 0) {
      // No warm-up per load (--quick): one second of each 50-connection load on a server that
      // serves only it warms that server's JIT (the daemon's and the hand-minimal server's).
      for (const { key, server, runtimes = [], ...busy } of list.filter((scenario) => scenario.connections === MANY && scenario.server !== 'bare')) {
        await loadGenerator.run({ ...busy, durationSec: 1 });
        await settle(api, runtimes);
      }
    }
    // The order flips every round, so drift in the machine's load does not favour one side.
    const ordered = round % 2 === 0 ? list : [...list].reverse();
    const measured = {};
    for (const { key, server, runtimes = [], ...spec } of ordered) {
      const loadStartedAt = performance.now();
      if (profile.http.warmupSec > 0) {
        await loadGenerator.run({ ...spec, durationSec: profile.http.warmupSec });
        await settle(api, runtimes);
      }
      const pid = pids[server];
      const cpuBefore = cpuSecondsOf(pid);
      const result = await loadGenerator.run({ ...spec, durationSec: profile.http.durationSec });
      const cpuAfter = cpuSecondsOf(pid);
      await settle(api, runtimes);
      if (result.failures > 0 || result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
        throw new Error(`${key}: ${result.failures} failed responses (${result.firstFailure}), ${result.errors} errors, ${result.timeouts} timeouts`);
      }
      if (result.reusedSnapshots > 0) throw new Error(`${key}: ${result.reusedSnapshots} checkpoints reused a snapshot; they must all be dirty`);
      result.serverCpuMicrosPerRequest = cpuBefore === undefined ? null : ((cpuAfter - cpuBefore) * 1e6) / result.totalRequests;
      measured[key] = result;
      const steps = Object.entries(result.steps).map(([step, figures]) => `${step} p50 ${figures.p50Ms.toFixed(3)} / p99 ${figures.p99Ms.toFixed(3)} ms`);
      log(`round ${round + 1} ${key}: ${Math.round(result.requestsPerSecond)} req/s, ${steps.join(', ')}, server CPU ${result.serverCpuMicrosPerRequest?.toFixed(0)} µs/request (${((performance.now() - loadStartedAt) / 1000).toFixed(1)} s)`);
    }
    return measured;
  } finally {
    await stopChild(daemon.child);
    await stopChild(minimal.child);
    await stopChild(workMinimal.child);
    await stopChild(bare.child);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Runs the rounds and returns the report rows and a detail table. */
export async function measureHttpRuntimeOperations(context) {
  const loadGenerator = await startLoadGenerator(1);
  const rounds = [];
  try {
    for (let round = 0; round < context.profile.http.rounds; round += 1) rounds.push(await oneRound(round, { ...context, loadGenerator }));
  } finally {
    await loadGenerator.close();
  }
  const step = (key, name, field) => rounds.map((round) => round[key].steps[name][field]);
  const ratio = (key, name, field, referenceKey, referenceStep = 'bare') =>
    rounds.map((round) => round[key].steps[name][field] / round[referenceKey].steps[referenceStep][field]);
  const rows = [
    figureRow({
      id: 'http.checkpoint.dirty.c1.p50',
      measurement: 'HTTP `checkpoint` of a dirty runtime (write-file before each), memory provider, 1 connection: p50',
      rounds: step('dirty-checkpoint@1', 'checkpoint', 'p50Ms'),
      unit: 'ms',
      detail: `p99 ${formatValue(median(step('dirty-checkpoint@1', 'checkpoint', 'p99Ms')), 'ms')}`,
      reference: { label: 'bare route p50, 1 connection', rounds: step('bare@1', 'bare', 'p50Ms') },
      ratio: { label: 'p50 vs bare p50', rounds: ratio('dirty-checkpoint@1', 'checkpoint', 'p50Ms', 'bare@1'), unit: '×' },
      target: { text: 'p50 ≤ 1 ms', met: ({ value }) => value <= 1 },
    }),
    figureRow({
      id: `http.checkpoint.dirty.c${MANY}.p99`,
      measurement: `HTTP \`checkpoint\` of a dirty runtime, memory provider, ${MANY} connections (one runtime each): p99`,
      rounds: step(`dirty-checkpoint@${MANY}`, 'checkpoint', 'p99Ms'),
      unit: 'ms',
      detail: `p50 ${formatValue(median(step(`dirty-checkpoint@${MANY}`, 'checkpoint', 'p50Ms')), 'ms')}; bare route p99 ${formatValue(median(step(`bare@${MANY}`, 'bare', 'p99Ms')), 'ms')}; canned-answer server (checkpoint-minimal) p99 ${formatValue(median(step(`minimal@${MANY}`, 'checkpoint', 'p99Ms')), 'ms')}`,
      reference: {
        label: `hand-minimal server doing the same work (work-minimal: write-file, checkpoint through core and the memory provider) p99, ${MANY} connections`,
        rounds: step(`work-minimal@${MANY}`, 'checkpoint', 'p99Ms'),
      },
      ratio: { label: 'p99 vs the work-minimal server’s p99', rounds: ratio(`dirty-checkpoint@${MANY}`, 'checkpoint', 'p99Ms', `work-minimal@${MANY}`, 'checkpoint'), unit: '×' },
      target: { text: 'p99 ≤ 1.5× the work-minimal server’s', met: ({ ratio: value }) => value <= 1.5 },
    }),
    ...['checkout', 'pause', 'resume'].map((operation) =>
      figureRow({
        id: `http.${operation}.c1.p50`,
        measurement: `HTTP \`${operation}\`, memory provider, 1 connection: p50`,
        rounds: step('operations@1', operation, 'p50Ms'),
        unit: 'ms',
        detail: `p99 ${formatValue(median(step('operations@1', operation, 'p99Ms')), 'ms')}`,
        reference: { label: 'bare route p50, 1 connection', rounds: step('bare@1', 'bare', 'p50Ms') },
        ratio: { label: 'p50 vs bare p50', rounds: ratio('operations@1', operation, 'p50Ms', 'bare@1'), unit: '×' },
        target: { text: 'p50 ≤ 2 ms', met: ({ value }) => value <= 2 },
      }),
    ),
  ];
  const details = [
    `Every round: fresh \`runtimed --store memory --provider memory\` (bearer auth, logs at info to /dev/null), bare route, hand-minimal server (canned answer) and work-minimal server (same work); ${context.profile.http.durationSec} s per load after ${context.profile.http.warmupSec > 0 ? `${context.profile.http.warmupSec} s of warm-up` : 'one 1 s warm-up per round of each 50-connection server but the bare route'}; medians over ${rounds.length} rounds.`,
    '',
    '| load | step | completed/s | p50 | p99 | server CPU per request |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const key of Object.keys(rounds[0])) {
    for (const name of Object.keys(rounds[0][key].steps)) {
      const at = (field) => median(step(key, name, field));
      const cpu = median(rounds.map((round) => round[key].serverCpuMicrosPerRequest ?? Number.NaN));
      details.push(`| ${key} | ${name} | ${Math.round(at('perSecond'))} | ${formatValue(at('p50Ms'), 'ms')} | ${formatValue(at('p99Ms'), 'ms')} | ${formatValue(cpu, 'µs')} |`);
    }
  }
  return { rows, details, raw: { rounds } };
}
