// A fleet of `runtimed` nodes on one PostgreSQL, against one node on the same server, in one run
// (issue 20): every node runs the E2B provider on one emulator, so any node serves any runtime.
//   1. per-operation overhead: write-file and a dirty checkpoint, p50, sent round-robin to 3
//      nodes (no proxy hop: the client spreads them) against the same sequence on one node, and
//      beside them the fleet with every request sent to one of its nodes (the fleet's store work
//      without the cost of spreading over processes); each request's daemon and provider time
//      from `server-timing`, the emulator's calls per sequence;
//   2. takeover: a node dies (SIGKILL) while it holds a runtime's lease (a checkpoint stuck at the
//      emulator); time from the kill until another node completes a checkpoint of that runtime;
//   3. parallelism: N dirty checkpoints at once through 3 nodes, with the emulator's snapshot
//      latency injected, against one such checkpoint alone; the same through one node; where the
//      wall time went (the emulator's call log) and the CPU the machine and our processes used.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { cpuSecondsOf, repoPath, spawnUntilLine, startRuntimed, stopChild } from '../processes.mjs';
import { cpuSnapshot } from '../machine.mjs';
import { figureRow } from '../report/figures.mjs';
import { dropSchemas, openServer } from '../postgres-server.mjs';
import { median, quantileOfSorted } from '../stats.mjs';

const load = (...parts) => import(pathToFileURL(repoPath(...parts)).href);
const EMULATOR_BIN = repoPath('packages', 'e2b-emulator', 'dist', 'bin.js');
const API_KEY = `e2b_${randomBytes(20).toString('hex')}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startEmulator() {
  const started = await spawnUntilLine(process.execPath, [EMULATOR_BIN, '--port', '0'], { env: { PATH: process.env.PATH, HOME: process.env.HOME }, pattern: /^\{"apiUrl"/ });
  const info = JSON.parse(started.line);
  const { E2BEmulatorAdminClient } = await load('packages', 'e2b-emulator', 'dist', 'index.js');
  return { child: started.child, info, admin: new E2BEmulatorAdminClient(info.apiUrl) };
}

/** The fleet's shared secret (fleet.secret_env): every node on PostgreSQL needs one. */
const FLEET_SECRET = randomBytes(32).toString('hex');

/** One node: runtimed on PostgreSQL schema `schema`, the E2B provider on the emulator, its own state dir. */
async function startNode({ tmpRoot, databaseUrl, schema, emulator, nodeId, leaseMs }) {
  const node = await startRuntimed({
    args: ['--provider', 'e2b', '--store', 'postgres', '--state-dir', mkdtempSync(join(tmpRoot, `fleet-${nodeId}-`))],
    env: {
      RUNTIMECTL_DATABASE_URL: databaseUrl,
      RUNTIMECTL_STORE_SCHEMA: schema,
      RUNTIMECTL_PROVIDERS_E2B_API_URL: emulator.info.apiUrl,
      RUNTIMECTL_PROVIDERS_E2B_SANDBOX_URL: emulator.info.sandboxUrl,
      E2B_API_KEY: API_KEY,
      RUNTIMECTL_FLEET_NODE_ID: nodeId,
      RUNTIMECTL_FLEET_LEASE_MS: String(leaseMs),
      RUNTIMECTL_FLEET_SECRET: FLEET_SECRET,
    },
  });
  return { ...node, nodeId, api: apiClient(node.url) };
}

async function startNodes(count, options) {
  const nodes = [];
  for (let index = 0; index < count; index += 1) nodes.push(await startNode({ ...options, nodeId: `${options.schema}-n${index}` }));
  return nodes;
}

const stopNodes = (nodes) => Promise.all(nodes.map((node) => stopChild(node.child)));

/**
 * One POST (200 required): the client's milliseconds, and the daemon's own split from its
 * `server-timing` header (`total` in the daemon, `provider` of it at the emulator).
 */
async function timedPost(api, url, path, body) {
  const startedAt = performance.now();
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: api.headers, body: JSON.stringify(body) });
  const text = await response.text();
  const ms = performance.now() - startedAt;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  const timing = Object.fromEntries([...(response.headers.get('server-timing') ?? '').matchAll(/(\w+);dur=([\d.]+)/g)].map(([, name, dur]) => [name, Number(dur)]));
  return { ms, totalMs: timing.total ?? Number.NaN, providerMs: timing.provider ?? Number.NaN };
}

const p50 = (values) => median(values);

/** p50s of one operation in one sequence: client, daemon (server-timing total), provider (its share). */
const splitOf = (measured, operation) => ({
  client: p50(measured[operation]),
  daemon: p50(measured.daemon[operation].map((t) => t.totalMs)),
  provider: p50(measured.daemon[operation].map((t) => t.providerMs)),
});
const splitText = ({ client, daemon, provider }) => `${client.toFixed(2)} (daemon ${daemon.toFixed(2)}, provider ${provider.toFixed(2)})`;

/** Opens a runtime through `api` (a fresh conversation named after `label`): its id. */
async function openRuntime(api, label) {
  const { runtime } = await api.post('/api/v1/runtimes/open', { conversation_id: `${label}-${randomBytes(4).toString('hex')}`, sender_id: 'bench' });
  return runtime.runtime_id;
}

/**
 * `operations` rounds of write-file then checkpoint on one runtime, request i sent to
 * nodes[i % nodes.length]: latencies per operation.
 */
async function measureSequence(nodes, operations, emulator) {
  const callsBefore = (await emulator.admin.state()).calls;
  const runtimeId = await openRuntime(nodes[0].api, 'bench');
  const latencies = { write: [], checkpoint: [] };
  const daemon = { write: [], checkpoint: [] };
  let request = 0;
  const send = async (operation, path, body) => {
    const node = nodes[request++ % nodes.length];
    const { ms, totalMs, providerMs } = await timedPost(node.api, node.url, path, body);
    latencies[operation].push(ms);
    daemon[operation].push({ totalMs, providerMs });
  };
  for (let index = 0; index < operations; index += 1) {
    await send('write', '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'bench.txt', content_base64: base64(`round ${index}`) });
    await send('checkpoint', '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
  }
  await nodes[0].api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  const callsAfter = (await emulator.admin.state()).calls;
  const emulatorCalls = Object.fromEntries(Object.entries(callsAfter).map(([name, count]) => [name, count - (callsBefore[name] ?? 0)]).filter(([, count]) => count > 0));
  return { ...latencies, daemon, emulatorCalls };
}

/** POSTs `body` to `path` on `node` until `done(status, text)`, `intervalMs` apart; gives up after `withinMs`. Attempts made. */
async function pollUntil(node, path, body, { done, intervalMs, withinMs, what }) {
  const deadline = performance.now() + withinMs;
  for (let attempts = 1; ; attempts += 1) {
    const answer = await fetch(`${node.url}${path}`, { method: 'POST', headers: node.api.headers, body: JSON.stringify(body) });
    const text = await answer.text();
    if (done(answer.status, text)) return attempts;
    if (answer.status !== 200 && answer.status !== 409) throw new Error(`${what}: ${path} answered ${answer.status} ${text.slice(0, 200)}`);
    if (performance.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms (last answer ${answer.status} ${text.slice(0, 200)})`);
    await sleep(intervalMs);
  }
}

/** Kills the node holding a checkpoint stuck at the emulator; ms until another node's checkpoint of that runtime succeeds. */
async function measureTakeover({ nodes, emulator, options }) {
  const [victim, survivor] = nodes;
  const runtimeId = await openRuntime(victim.api, 'takeover');
  await victim.api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'a.txt', content_base64: base64('dirty') });
  await emulator.admin.setLatency('snapshot', options.leaseMs * 2);
  const stuck = victim.api.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }).catch(() => undefined);
  // The victim's checkpoint holds the runtime's exclusive lease once a stat (a shared lease, no
  // provider work of note) through the survivor is refused with session_busy.
  await pollUntil(survivor, '/api/v1/runtimes/stat', { runtime_id: runtimeId, path: 'a.txt' }, { done: (status) => status === 409, intervalMs: 20, withinMs: options.leaseMs, what: 'takeover: the victim never held the lease' });
  await emulator.admin.setLatency('snapshot', 0);
  const killedAt = performance.now();
  victim.child.kill('SIGKILL');
  const attempts = await pollUntil(survivor, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }, { done: (status) => status === 200, intervalMs: 50, withinMs: options.leaseMs * 3 + 10_000, what: 'takeover: the survivor never checkpointed' });
  const takeoverMs = performance.now() - killedAt;
  await stuck;
  nodes[0] = await startNode({ ...options, nodeId: victim.nodeId });
  await survivor.api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  return { takeoverMs, attempts };
}

/**
 * Where the wall time of the concurrent checkpoints went, from the emulator's call log (epoch ms,
 * same host clock): when the snapshot calls started and ended relative to the first request, and
 * how long each took beyond the injected latency (the emulator copying the sandbox).
 */
function emulatorTimeline(calls, startedAtEpochMs, allMs) {
  const snapshots = calls.filter((call) => call.operation === 'snapshot');
  const starts = snapshots.map((call) => call.startedAtMs - startedAtEpochMs).sort((a, b) => a - b);
  const ends = snapshots.map((call) => call.endedAtMs - startedAtEpochMs).sort((a, b) => a - b);
  const durations = snapshots.map((call) => call.endedAtMs - call.startedAtMs).sort((a, b) => a - b);
  return {
    snapshotCalls: snapshots.length,
    callsByOperation: calls.reduce((counts, call) => ({ ...counts, [call.operation]: (counts[call.operation] ?? 0) + 1 }), {}),
    firstSnapshotStartMs: starts[0],
    lastSnapshotStartMs: starts.at(-1),
    lastSnapshotEndMs: ends.at(-1),
    snapshotDurationMs: { min: durations[0], p50: median(durations), max: durations.at(-1) },
    afterLastSnapshotMs: allMs - ends.at(-1),
  };
}

/** `count` dirty checkpoints at once, round-robin over `nodes`; and one alone first. Wall times in ms. */
async function measureParallelCheckpoints({ nodes, emulator, count, snapshotMs }) {
  const runtimeIds = [];
  for (let index = 0; index < count; index += 1) {
    const api = nodes[index % nodes.length].api;
    runtimeIds.push(await openRuntime(api, `parallel-${index}`));
  }
  const dirty = (index) => nodes[index % nodes.length].api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeIds[index], path: 'p.txt', content_base64: base64(`${index} ${Math.random()}`) });
  await emulator.admin.setLatency('snapshot', snapshotMs);
  try {
    await dirty(0);
    const one = await timedPost(nodes[0].api, nodes[0].url, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeIds[0] });
    await Promise.all(runtimeIds.map((_, index) => dirty(index)));
    await emulator.admin.reset();
    // CPU during the burst: the whole machine's busy share, and the seconds the nodes and the emulator used.
    const cpuOf = () => ({ machine: cpuSnapshot(), nodes: nodes.map((node) => cpuSecondsOf(node.child.pid)), emulator: cpuSecondsOf(emulator.child.pid) });
    const cpuBefore = cpuOf();
    const startedAt = performance.now();
    const startedAtEpochMs = Date.now();
    const each = await Promise.all(runtimeIds.map((runtimeId, index) => timedPost(nodes[index % nodes.length].api, nodes[index % nodes.length].url, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId })));
    const allMs = performance.now() - startedAt;
    const cpuAfter = cpuOf();
    const sum = (values) => values.reduce((total, value) => total + value, 0);
    const cpu = {
      machineBusyShare: (cpuAfter.machine.busy - cpuBefore.machine.busy) / (cpuAfter.machine.total - cpuBefore.machine.total),
      nodesSeconds: sum(cpuAfter.nodes) - sum(cpuBefore.nodes),
      emulatorSeconds: cpuAfter.emulator - cpuBefore.emulator,
    };
    const spread = (values) => ({ min: Math.min(...values), p50: median(values), max: Math.max(...values) });
    return {
      oneMs: one.ms,
      one,
      allMs,
      cpu,
      // Per request: time in the daemon outside the provider call (HTTP, leases and commits in PostgreSQL) and in it.
      daemonOutsideProviderMs: spread(each.map((t) => t.totalMs - t.providerMs)),
      providerMs: spread(each.map((t) => t.providerMs)),
      emulator: emulatorTimeline(await emulator.admin.callLog(), startedAtEpochMs, allMs),
    };
  } finally {
    await emulator.admin.setLatency('snapshot', 0);
    for (const runtimeId of runtimeIds) await nodes[0].api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  }
}

export async function measureFleet({ profile, tmpRoot, log }) {
  const { rounds, operations, leaseMs, concurrent, snapshotMs } = profile.fleet;
  const server = await openServer(log);
  const emulator = await startEmulator();
  const suffix = randomBytes(3).toString('hex');
  const schemas = { single: `single_${suffix}`, fleet: `fleet_${suffix}` };
  const common = { tmpRoot, databaseUrl: server.url, emulator, leaseMs };
  let single = [];
  let fleet = [];
  try {
    single = await startNodes(1, { ...common, schema: schemas.single });
    fleet = await startNodes(3, { ...common, schema: schemas.fleet });
    log(`one node and a fleet of ${fleet.length} on one PostgreSQL, lease ${leaseMs} ms`);
    // Three arms on the same sequence: one node; the fleet with requests round-robin over its
    // nodes; the fleet with every request sent to one of its nodes (which separates what spreading
    // over processes costs from what the fleet's store work costs). Warm-up: the same number of
    // requests per process (a node's JIT and connections warm with the requests it serves).
    const arms = { single, fleet, pinned: [fleet[0]] };
    await measureSequence(single, operations, emulator);
    await measureSequence(fleet, operations * fleet.length, emulator);
    const perRound = [];
    for (let round = 0; round < rounds; round += 1) {
      const names = Object.keys(arms);
      const order = names.map((_, index) => names[(index + round) % names.length]);
      const measured = {};
      for (const which of order) measured[which] = await measureSequence(arms[which], operations, emulator);
      perRound.push(measured);
      log(`round ${round + 1}: emulator calls ${names.map((name) => `${name} ${JSON.stringify(measured[name].emulatorCalls)}`).join(' / ')}`);
      for (const operation of ['write', 'checkpoint']) log(`round ${round + 1}: ${operation} p50 ms: ${names.map((name) => `${name} ${splitText(splitOf(measured[name], operation))}`).join(' / ')}`);
    }
    const takeover = await measureTakeover({ nodes: fleet, emulator, options: { ...common, schema: schemas.fleet } });
    log(`takeover after SIGKILL: ${takeover.takeoverMs.toFixed(0)} ms (${takeover.attempts} attempts)`);
    const parallel = await measureParallelCheckpoints({ nodes: fleet, emulator, count: concurrent, snapshotMs });
    // The same on one node: whether the fleet's wall time is the fleet's or this machine's.
    const parallelOnOne = await measureParallelCheckpoints({ nodes: single, emulator, count: concurrent, snapshotMs });
    log(`the same on one node: ${parallelOnOne.allMs.toFixed(0)} ms, one alone ${parallelOnOne.oneMs.toFixed(0)} ms; cpu ${JSON.stringify(parallelOnOne.cpu)}; per request in the daemon outside the provider ${JSON.stringify(parallelOnOne.daemonOutsideProviderMs)}, provider ${JSON.stringify(parallelOnOne.providerMs)}; emulator ${JSON.stringify(parallelOnOne.emulator)}`);
    log(`${concurrent} concurrent dirty checkpoints: ${parallel.allMs.toFixed(0)} ms, one alone ${parallel.oneMs.toFixed(0)} ms (${JSON.stringify(parallel.one)}); cpu ${JSON.stringify(parallel.cpu)}; per request in the daemon outside the provider ${JSON.stringify(parallel.daemonOutsideProviderMs)}, provider ${JSON.stringify(parallel.providerMs)}; emulator ${JSON.stringify(parallel.emulator)}`);

    const rows = ['write', 'checkpoint'].map((operation) => {
      const fleetP50 = perRound.map((round) => p50(round.fleet[operation]));
      const singleP50 = perRound.map((round) => p50(round.single[operation]));
      const pinnedP50 = perRound.map((round) => p50(round.pinned[operation]));
      const all = perRound.flatMap((round) => round.fleet[operation]).sort((a, b) => a - b);
      const label = operation === 'write' ? 'write-file' : 'dirty checkpoint';
      return figureRow({
        id: `fleet.${operation}.overhead`,
        measurement: `${label} through a fleet of 3 nodes (requests round-robin) against one node, same PostgreSQL, E2B emulator: p50`,
        rounds: fleetP50,
        unit: 'ms',
        detail: `fleet p95 ${formatValue(quantileOfSorted(all, 0.95), 'ms')}; every request to one fleet node: p50 ${formatValue(median(pinnedP50), 'ms')}, ${median(perRound.map((_, index) => pinnedP50[index] / singleP50[index])).toFixed(2)}× one node; ${operations} per round`,
        reference: { label: 'one node p50', rounds: singleP50 },
        ratio: { label: 'fleet / one node', rounds: perRound.map((_, index) => fleetP50[index] / singleP50[index]), unit: '×' },
        target: { text: 'p50 ≤ 1.3× one node', met: ({ ratio }) => ratio <= 1.3 },
      });
    });
    rows.push(
      figureRow({
        id: 'fleet.takeover',
        measurement: `a node dies (SIGKILL) holding a runtime's lease: time until another node completes a checkpoint of it (lease ${formatValue(leaseMs, 'ms')})`,
        rounds: [takeover.takeoverMs],
        unit: 'ms',
        detail: `${takeover.attempts} attempts, 50 ms apart`,
        reference: { label: 'lease + 1 s', value: leaseMs + 1000 },
        target: { text: '≤ lease + 1 s', met: ({ value }) => value <= leaseMs + 1000 },
      }),
      figureRow({
        id: 'fleet.parallel-checkpoints',
        measurement: `${concurrent} concurrent dirty checkpoints through 3 nodes, emulator snapshot latency ${formatValue(snapshotMs, 'ms')}: wall time`,
        rounds: [parallel.allMs],
        unit: 'ms',
        reference: { label: 'one dirty checkpoint alone', value: parallel.oneMs },
        ratio: { label: `${concurrent} / one`, rounds: [parallel.allMs / parallel.oneMs], unit: '×' },
        target: { text: `${concurrent} at once ≤ 2× one`, met: ({ ratio }) => ratio <= 2 },
      }),
      figureRow({
        id: 'fleet.parallel-checkpoints.one-node',
        measurement: `the same ${concurrent} concurrent dirty checkpoints through one node: wall time`,
        rounds: [parallelOnOne.allMs],
        unit: 'ms',
        detail: `through 3 nodes: ${formatValue(parallel.allMs, 'ms')}`,
        reference: { label: 'one dirty checkpoint alone on that node', value: parallelOnOne.oneMs },
        ratio: { label: `${concurrent} / one`, rounds: [parallelOnOne.allMs / parallelOnOne.oneMs], unit: '×' },
      }),
    );
    const details = [
      `PostgreSQL: ${server.label}. Nodes: \`runtimed --provider e2b --store postgres\`, each with its own state dir and node id, lease ${formatValue(leaseMs, 'ms')}, on one E2B emulator (no latency except where stated). One node and the fleet use separate schemas of the same server. Three arms — one node; the fleet, requests round-robin; the fleet, every request to one of its nodes — each process first warmed with ${operations * 2} requests, then ${rounds} rounds rotating which arm goes first, each ${operations} × (write-file, checkpoint) on one runtime.`,
      '',
      'Where the time of one request goes, median over rounds of each round’s p50 (ms): client round trip; in the daemon (`server-timing` total); of that, in the provider call (E2B SDK to the emulator).',
      '',
      '| arm | write-file: client | daemon | provider | checkpoint: client | daemon | provider | emulator calls per sequence |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...['single', 'fleet', 'pinned'].map((arm) => {
        const cells = ['write', 'checkpoint'].flatMap((operation) => {
          const splits = perRound.map((round) => splitOf(round[arm], operation));
          return ['client', 'daemon', 'provider'].map((part) => median(splits.map((split) => split[part])).toFixed(1));
        });
        const calls = Object.entries(perRound.at(-1)[arm].emulatorCalls).map(([name, count]) => `${name} ${count}`).join(', ');
        return `| ${{ single: 'one node', fleet: 'fleet, round-robin', pinned: 'fleet, one node of it' }[arm]} | ${cells.join(' | ')} | ${calls} |`;
      }),
      '',
      `${concurrent} concurrent dirty checkpoints (emulator snapshot latency ${formatValue(snapshotMs, 'ms')}), from the emulator's call log and each answer's \`server-timing\` (ms after the first request was sent):`,
      '',
      '| through | wall | one alone | first snapshot call starts | last starts | last ends | snapshot call p50 (max) | per request in the daemon outside the provider, p50 (max) | machine CPU busy | CPU s: nodes, emulator |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...[['3 nodes', parallel], ['1 node', parallelOnOne]].map(([label, run]) =>
        `| ${label} | ${run.allMs.toFixed(0)} | ${run.oneMs.toFixed(0)} | ${run.emulator.firstSnapshotStartMs.toFixed(0)} | ${run.emulator.lastSnapshotStartMs.toFixed(0)} | ${run.emulator.lastSnapshotEndMs.toFixed(0)} | ${run.emulator.snapshotDurationMs.p50.toFixed(0)} (${run.emulator.snapshotDurationMs.max.toFixed(0)}) | ${run.daemonOutsideProviderMs.p50.toFixed(0)} (${run.daemonOutsideProviderMs.max.toFixed(0)}) | ${(run.cpu.machineBusyShare * 100).toFixed(0)}% | ${run.cpu.nodesSeconds.toFixed(2)}, ${run.cpu.emulatorSeconds.toFixed(2)} |`,
      ),
    ];
    return { rows, details, raw: { perRound, takeover, parallel, parallelOnOne, leaseMs } };
  } finally {
    await stopNodes([...single, ...fleet]);
    await stopChild(emulator.child);
    if (server.given) await dropSchemas(server.url, Object.values(schemas));
    await server.remove();
  }
}
