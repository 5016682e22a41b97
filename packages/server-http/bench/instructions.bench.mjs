#!/usr/bin/env node
// Diagnostic (not a test, not part of `npm run bench`): user-space instructions per request of
// the bare route and of the runtime API, counted by valgrind (callgrind). Unlike req/s and CPU
// time, an instruction count does not depend on what else the machine runs, so it shows changes
// that the noise of server.bench.mjs hides (routes that keep nothing repeat within a few percent; the
// checkpoint, whose store grows, within about ±6%, as a major GC falls inside the measured
// window or not: compare several runs, or raise --requests). It leaves out what the
// kernel does for a request (about a quarter of the API server's CPU, see the README) and
// weighs every instruction alike: a cache miss costs nothing here.
//
//   node bench/instructions.bench.mjs [--requests 2000] [--only checkpoint,minimal] [--json out.json]
//
// --only keeps the scenarios whose name contains one of the words (case-insensitive); the bare GET
// always runs, as the reference of the last column.
//
// Each scenario runs its server under valgrind twice, loaded with N and then 3N requests at 50
// connections (autocannon, in this process); the difference over 2N requests is the cost of a
// request without start-up, preparation and shutdown. The core-alone scenario runs the same
// clean checkpoints in one process without a server (core-checkpoints.mjs, N then 3N in turn).
// Needs valgrind (Debian: apt-get install
// valgrind) and the package built; takes a few minutes (valgrind runs Node about 50× slower).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { operationSpecs, prepareRuntimes, TOKEN } from './runtimes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const REQUESTS = Number(option('requests', 2000));
const JSON_OUT = option('json', undefined);
const CONNECTIONS = 50;

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions.bench: needs valgrind on the PATH (Debian: apt-get install valgrind)');
  process.exit(2);
}

const allScenarios = [
  { name: 'bare GET', script: 'bare-server.mjs', spec: (url) => ({ url: `${url}/bare`, method: 'GET' }) },
  {
    name: 'bare POST (small JSON body)',
    script: 'bare-server.mjs',
    spec: (url) => ({ url: `${url}/bare`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: [JSON.stringify({ runtime_id: 'bench-000' })] }),
  },
  { name: 'API GET /api/v1/health (whole stack, no service call)', script: 'api-server.mjs', spec: (url) => ({ url: `${url}/api/v1/health`, method: 'GET' }) },
  { name: 'API checkpoint of a clean runtime', script: 'api-server.mjs', runtimes: true, spec: (url, ids) => operationSpecs(url, ids).checkpoint },
  { name: 'API exec (memory provider)', script: 'api-server.mjs', runtimes: true, spec: (url, ids) => operationSpecs(url, ids).exec },
  {
    name: 'API checkpoint whose service answers without doing it (the HTTP layer alone)',
    script: 'api-server.mjs',
    runtimes: true,
    env: { BENCH_FREE_CHECKPOINT: '1' },
    spec: (url, ids) => operationSpecs(url, ids).checkpoint,
  },
  // No server: the same clean checkpoints through core in one process (core-checkpoints.mjs), so
  // the operation's own cost shows apart from the HTTP layer's.
  { name: 'core alone: checkpoint of a clean runtime (no HTTP)', script: 'core-checkpoints.mjs', inProcess: true },
  {
    name: 'hand-minimal checkpoint (minimal-api-server.mjs, canned answer)',
    script: 'minimal-api-server.mjs',
    runtimes: false,
    spec: (url) => operationSpecs(url, Array.from({ length: CONNECTIONS }, (_, index) => `bench-${String(index).padStart(3, '0')}`)).checkpoint,
  },
];
const ONLY = option('only', undefined)?.toLowerCase().split(',');
const scenarios = allScenarios.filter((scenario, index) => index === 0 || !ONLY || ONLY.some((word) => scenario.name.toLowerCase().includes(word)));

/** Total instructions the server executed, from start to exit, serving `requests` requests of the scenario. */
async function countInstructions(scenario, requests) {
  const outDir = mkdtempSync(join(tmpdir(), 'runtimectl-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(outDir, 'callgrind.out')}`,
      '--dump-instr=no',
      '--collect-jumps=no',
      '--smc-check=all-non-file',
      process.execPath,
      join(here, scenario.script),
      ...(scenario.inProcess ? [String(requests)] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...scenario.env, BENCH_TOKEN: TOKEN } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    if (scenario.inProcess) return await collectedAtExit(child, () => stderr, scenario);
    const url = await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${scenario.script} exited with ${code} under valgrind: ${stderr.slice(-500)}`)));
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line).url));
    });
    const runtimeIds = scenario.runtimes ? await prepareRuntimes(url, CONNECTIONS) : [];
    const { bodies, ...spec } = scenario.spec(url, runtimeIds);
    let nextClient = 0;
    const result = await autocannon({
      ...spec,
      connections: CONNECTIONS,
      amount: requests,
      timeout: 600,
      setupClient(client) {
        if (bodies) client.setBody(bodies[nextClient++ % bodies.length]);
      },
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    return collectedCount(stderr);
  } finally {
    child.kill('SIGKILL');
    rmSync(outDir, { recursive: true, force: true });
  }
}

function collectedCount(stderr) {
  const collected = /Collected : (\d+)/.exec(stderr);
  if (!collected) throw new Error(`no instruction count from valgrind: ${stderr.slice(-500)}`);
  return Number(collected[1]);
}

/** An in-process scenario runs its requests and exits on its own. */
async function collectedAtExit(child, stderr, scenario) {
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${scenario.script} exited with ${code} under valgrind: ${stderr().slice(-500)}`);
  return collectedCount(stderr());
}

/** Runs `tasks` (functions returning promises) with at most `limit` at a time, results in order. */
async function inPool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

// valgrind runs one thread at a time per process: one server per core (the load generator is light).
const counts = await inPool(
  scenarios.flatMap((scenario) => [REQUESTS, 3 * REQUESTS].map((requests) => () => countInstructions(scenario, requests))),
  Math.max(1, cpus().length),
);
const perRequest = scenarios.map((scenario, index) => ({
  scenario: scenario.name,
  instructionsPerRequest: Math.round((counts[2 * index + 1] - counts[2 * index]) / (2 * REQUESTS)),
}));
const bare = perRequest[0].instructionsPerRequest;
console.log(`\nuser-space instructions per request (valgrind, ${REQUESTS} and ${3 * REQUESTS} requests at ${CONNECTIONS} connections, Node ${process.version})\n`);
console.log('| scenario | instructions per request | vs bare GET |\n| --- | ---: | ---: |');
for (const { scenario, instructionsPerRequest } of perRequest) {
  console.log(`| ${scenario} | ${instructionsPerRequest.toLocaleString('en-US')} | ${(instructionsPerRequest / bare).toFixed(2)}× |`);
}
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ requests: REQUESTS, connections: CONNECTIONS, node: process.version, perRequest }, null, 2)}\n`);
