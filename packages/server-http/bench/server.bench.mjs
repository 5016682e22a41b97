#!/usr/bin/env node
// Benchmark (not a test): the runtime API against a bare fastify route, in one run on this
// machine. Each server and each load generator (autocannon) is its own process; on a machine
// with at least two cores the servers are pinned to core 0 and the load generator to core 1
// (taskset), so the figures compare like with like. Every round starts fresh server processes
// (the memory store grows with every checkpoint). Reported: median over rounds of req/s and
// p50/p99 latency at 1 and 50 connections, and ratios to the bare route of the same round.
//
//   node bench/server.bench.mjs [--rounds 3] [--duration 5] [--warmup 1] [--json out.json] [--diagnose]
//
// --diagnose adds, at 50 connections, five scenarios that split the cost: the bare route
// answering a POST with a small JSON body; GET /api/v1/health through the whole stack (auth
// skipped, logging, metrics, zod serialisation) without touching the service; the clean
// checkpoint on a server whose service answers it without doing it (the result of the runtime's
// last real checkpoint again): the route's HTTP cost alone, auth, validation, logging, metrics
// and serialisation included; the same canned answer from minimal-api-server.mjs, those
// required features assembled by hand with nothing else; and those features in front of the same
// clean checkpoints through core (minimal-work-server.mjs): the like-for-like reference.
//
// Needs the package built (`pnpm run build`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanOpenedRuntimes, operationSpecs, prepareRuntimes, TOKEN } from './runtimes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const ROUNDS = Number(option('rounds', 3));
const DURATION_SEC = Number(option('duration', 5));
const WARMUP_SEC = Number(option('warmup', 1));
const JSON_OUT = option('json', undefined);
const DIAGNOSE = args.includes('--diagnose');
const CONNECTION_LEVELS = [1, 50];

if (!existsSync(join(here, '..', 'dist', 'index.js'))) {
  console.error('bench: build the package first (pnpm run build)');
  process.exit(1);
}

const canPin = cpus().length >= 2 && spawnSync('taskset', ['--version']).status === 0;
/** [command, args] running `script` with node, pinned to `core` when possible. */
const nodeOn = (core, script, scriptArgs = []) =>
  canPin ? ['taskset', ['-c', String(core), process.execPath, script, ...scriptArgs]] : [process.execPath, [script, ...scriptArgs]];

/** Starts a server script and resolves with its URL (its first stdout line) and the process. */
function startServer(script, env = {}) {
  const [command, commandArgs] = nodeOn(0, join(here, script));
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_TOKEN: TOKEN, ...env } });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ url: JSON.parse(line).url, child }));
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', resolve);
    server.child.kill('SIGTERM');
  });
}

/** CPU seconds (user + system) the process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * Runs one load in a separate process and returns its JSON result, plus the server's CPU time
 * per request: unlike wall-clock figures, that one holds when other work shares the machine.
 */
function load(spec, serverPid) {
  const cpuBefore = cpuSecondsOf(serverPid);
  const [command, commandArgs] = nodeOn(1, join(here, 'load.mjs'), [JSON.stringify(spec)]);
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`load generator failed: ${result.stderr}`);
  const measured = JSON.parse(result.stdout.trim().split('\n').at(-1));
  if (measured.non2xx > 0 || measured.errors > 0) {
    throw new Error(`${spec.label}: ${measured.non2xx} non-2xx and ${measured.errors} errors; the figures would be meaningless`);
  }
  const cpuAfter = cpuSecondsOf(serverPid);
  measured.serverCpuMicrosPerRequest =
    cpuBefore === undefined || cpuAfter === undefined ? null : ((cpuAfter - cpuBefore) * 1e6) / measured.totalRequests;
  return measured;
}

const scenarios = (connections, { bare, api, freeApi, minimalApi, workMinimal }, runtimeIds) => {
  const diagnostics = [
    {
      name: 'bare-post',
      url: `${bare.url}/bare`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      pid: bare.child.pid,
      bodies: [JSON.stringify({ runtime_id: 'bench-000' })],
    },
    { name: 'api-health', url: `${api.url}/api/v1/health`, method: 'GET', headers: {}, pid: api.child.pid },
    // Servers that serve only this load: without warm-up loads (--warmup 0) they would be measured cold.
    ...(freeApi ? [{ name: 'checkpoint-free', ...operationSpecs(freeApi.url, runtimeIds).checkpoint, pid: freeApi.child.pid, coldServer: true }] : []),
    ...(minimalApi ? [{ name: 'checkpoint-minimal', ...operationSpecs(minimalApi.url, runtimeIds).checkpoint, pid: minimalApi.child.pid, coldServer: true }] : []),
    // Like for like: the same clean checkpoints through core behind the hand-assembled features.
    ...(workMinimal
      ? [{ name: 'checkpoint-work-minimal', ...operationSpecs(workMinimal.url, runtimeIds).checkpoint, pid: workMinimal.child.pid, coldServer: true }]
      : []),
  ];
  const operations = operationSpecs(api.url, runtimeIds);
  return [
    { name: 'bare', url: `${bare.url}/bare`, method: 'GET', headers: {}, pid: bare.child.pid },
    ...(DIAGNOSE && connections === 50 ? diagnostics : []),
    { name: 'checkpoint', ...operations.checkpoint, pid: api.child.pid },
    { name: 'exec', ...operations.exec, pid: api.child.pid },
  ];
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const rounds = [];
/** 1-minute load average when each round started and ended: context for how busy the machine was. */
const loads = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  loads.push(loadavg()[0]);
  const bare = await startServer('bare-server.mjs');
  const api = await startServer('api-server.mjs');
  const freeApi = DIAGNOSE ? await startServer('api-server.mjs', { BENCH_FREE_CHECKPOINT: '1' }) : undefined;
  const minimalApi = DIAGNOSE ? await startServer('minimal-api-server.mjs') : undefined;
  const workMinimal = DIAGNOSE ? await startServer('minimal-work-server.mjs', { BENCH_RUNTIMES: String(Math.max(...CONNECTION_LEVELS)) }) : undefined;
  try {
    const runtimeIds = await prepareRuntimes(api.url, Math.max(...CONNECTION_LEVELS));
    if (freeApi) await prepareRuntimes(freeApi.url, Math.max(...CONNECTION_LEVELS));
    if (workMinimal) await cleanOpenedRuntimes(workMinimal.url, Math.max(...CONNECTION_LEVELS));
    const measured = {};
    for (const connections of CONNECTION_LEVELS) {
      for (const scenario of scenarios(connections, { bare, api, freeApi, minimalApi, workMinimal }, runtimeIds)) {
        const { pid, coldServer, ...rest } = scenario;
        const spec = { ...rest, label: `${scenario.name} c=${connections}`, connections };
        const warmupSec = coldServer ? Math.max(WARMUP_SEC, 1) : WARMUP_SEC;
        if (warmupSec > 0) load({ ...spec, durationSec: warmupSec }, pid);
        measured[`${scenario.name}@${connections}`] = load({ ...spec, durationSec: DURATION_SEC }, pid);
        const last = measured[`${scenario.name}@${connections}`];
        console.error(
          `round ${round} ${spec.label}: ${Math.round(last.requestsPerSecond)} req/s, p50 ${last.p50Ms.toFixed(3)} ms, p99 ${last.p99Ms.toFixed(3)} ms, server CPU ${last.serverCpuMicrosPerRequest?.toFixed(0)} µs/request`,
        );
      }
    }
    rounds.push(measured);
    loads.push(loadavg()[0]);
  } finally {
    if (workMinimal) await stopServer(workMinimal);
    if (minimalApi) await stopServer(minimalApi);
    if (freeApi) await stopServer(freeApi);
    await stopServer(api);
    await stopServer(bare);
  }
}

const summary = {};
for (const key of Object.keys(rounds[0])) {
  summary[key] = {
    requestsPerSecond: median(rounds.map((round) => round[key].requestsPerSecond)),
    p50Ms: median(rounds.map((round) => round[key].p50Ms)),
    p99Ms: median(rounds.map((round) => round[key].p99Ms)),
    serverCpuMicrosPerRequest: median(rounds.map((round) => round[key].serverCpuMicrosPerRequest ?? Number.NaN)),
    // Ratios are taken within each round (same machine state), then the median.
    throughputVsBare: median(rounds.map((round) => round[key].requestsPerSecond / round[`bare@${key.split('@')[1]}`].requestsPerSecond)),
    p99VsBare: median(rounds.map((round) => round[key].p99Ms / round[`bare@${key.split('@')[1]}`].p99Ms)),
  };
}

// 1 connection: against the bare route. 50 connections: against the hand-minimal server
// (checkpoint-minimal, measured with --diagnose), ratios within each round.
const vsMinimal = (key, field) =>
  rounds[0]['checkpoint-minimal@50'] ? median(rounds.map((round) => round[key][field] / round['checkpoint-minimal@50'][field])) : undefined;
const minimalTarget = (label, key, field, met, format) => {
  const ratio = vsMinimal(key, field);
  return ratio === undefined ? [label, false, 'not measured: run with --diagnose'] : [label, met(ratio), format(ratio)];
};
const targets = [
  minimalTarget('clean checkpoint throughput ≥ 60% of the hand-minimal server (50 connections)', 'checkpoint@50', 'requestsPerSecond', (ratio) => ratio >= 0.6, (ratio) => `${(ratio * 100).toFixed(0)}%`),
  ['clean checkpoint throughput ≥ 40% of bare (1 connection)', summary['checkpoint@1'].throughputVsBare >= 0.4, `${(summary['checkpoint@1'].throughputVsBare * 100).toFixed(0)}%`],
  minimalTarget('checkpoint p99 ≤ 1.5× the hand-minimal server’s p99 at 50 connections', 'checkpoint@50', 'p99Ms', (ratio) => ratio <= 1.5, (ratio) => `${ratio.toFixed(2)}×`),
  minimalTarget('exec p99 ≤ 1.5× the hand-minimal server’s p99 at 50 connections', 'exec@50', 'p99Ms', (ratio) => ratio <= 1.5, (ratio) => `${ratio.toFixed(2)}×`),
  ['checkpoint p50 ≤ 1 ms at 1 connection', summary['checkpoint@1'].p50Ms <= 1, `${summary['checkpoint@1'].p50Ms.toFixed(3)} ms`],
  ['exec p50 ≤ 1 ms at 1 connection', summary['exec@1'].p50Ms <= 1, `${summary['exec@1'].p50Ms.toFixed(3)} ms`],
];

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${canPin ? 'servers on core 0, load on core 1' : 'not pinned'}`;
console.log(`\nmachine: ${machine}; ${ROUNDS} rounds × ${DURATION_SEC} s (+${WARMUP_SEC} s warm-up), medians`);
console.log(`1-min load average around the rounds: ${loads.map((load) => load.toFixed(1)).join(', ')} (on ${cpus().length} cores)\n`);
console.log('| scenario | connections | req/s | vs bare | p50 ms | p99 ms | p99 vs bare | server CPU µs/req |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [key, figures] of Object.entries(summary)) {
  const [name, connections] = key.split('@');
  console.log(
    `| ${name} | ${connections} | ${Math.round(figures.requestsPerSecond)} | ${(figures.throughputVsBare * 100).toFixed(0)}% | ${figures.p50Ms.toFixed(3)} | ${figures.p99Ms.toFixed(3)} | ${figures.p99VsBare.toFixed(2)}× | ${figures.serverCpuMicrosPerRequest.toFixed(0)} |`,
  );
}
console.log('\n| target | met | measured |\n| --- | --- | --- |');
for (const [target, met, measured] of targets) console.log(`| ${target} | ${met ? 'yes' : '**no**'} | ${measured} |`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ machine, loadAverages: loads, rounds: ROUNDS, durationSec: DURATION_SEC, summary, perRound: rounds }, null, 2)}\n`);
