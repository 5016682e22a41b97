// Issue 23's retention target: "a retention pass over 100,000 checkpoints (10,000 runtimes) ≤ 2 s
// of daemon time and does not raise the p99 of concurrent clean checkpoints by more than 1.5×".
// A SQLite store written by the store section's `populate` (its records: memory provider, every
// other checkpoint reusing its predecessor's snapshot, checkout children, paused and closed
// runtimes), then the real `runtimed` on it (memory provider enabled, so the records' snapshots
// are its own), the maintenance node running a pass every second. A pass's daemon time is read
// where the daemon reports it: `runtimectl_operation_duration_seconds{operation="retention"}` on
// `/metrics` (the pass as `RuntimeService.applyRetention()` runs it).
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { postJson } from '../timed-post.mjs';
import { repoPath, startRuntimed, stopChild } from '../processes.mjs';
import { median, quantileOfSorted } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const CHECKPOINTS_PER_RUNTIME = 10;
const STATE_BYTES = 1024;
/** One runtime in ten (idle, and no checkout child's source) gets `keep_last: 8`: its oldest snapshot (checkpoints 0 and 1 share it) is condemned. */
const CONDEMNED_EVERY = 10;
const CONDEMNED_REMAINDER = 1;
/** The maintenance node runs every lease (three heartbeats); 1 s is the smallest lease. */
const LEASE_MS = 1_000;
const CONNECTIONS = 10;

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS + 2 });

const post = (url, path, body) => postJson(agent, url, path, body);

/** The store: `populate`'s records, then `keep_last: 8` on one runtime in ten (the condemning copy only). */
async function writeStores(dir, runtimes, log) {
  const { createSqliteStore } = await import(repoPath('packages', 'store-sqlite', 'dist', 'index.js'));
  const { populate } = await import(repoPath('packages', 'store-sqlite', 'bench', 'bench-records.mjs'));
  const steady = join(dir, 'steady.sqlite');
  const startedAt = performance.now();
  let store = createSqliteStore({ path: steady, synchronous: 'normal' });
  const { records } = await populate(store, { runtimes, checkpointsPerRuntime: CHECKPOINTS_PER_RUNTIME, stateBytes: STATE_BYTES, sizeOf: () => 0 });
  await store.close();
  const condemning = join(dir, 'condemning.sqlite');
  copyFileSync(steady, condemning);
  store = createSqliteStore({ path: condemning, synchronous: 'normal' });
  const chosen = records.filter((_, index) => index % CONDEMNED_EVERY === CONDEMNED_REMAINDER && records[index].runtime.status === 'idle');
  for (let from = 0; from < chosen.length; from += 500) {
    const sessions = await Promise.all(chosen.slice(from, from + 500).map((entry) => store.getSession(entry.runtime.runtimeId)));
    await store.commit({ sessions: sessions.map((session) => ({ ...session, retention: { keepLast: CHECKPOINTS_PER_RUNTIME - 2 } })) });
  }
  await store.close();
  log(`${runtimes.toLocaleString('en-US')} runtimes × ${CHECKPOINTS_PER_RUNTIME} checkpoints written in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (${chosen.length} of them with keep_last ${CHECKPOINTS_PER_RUNTIME - 2} in the condemning copy)`);
  return { steady, condemning, checkpoints: runtimes * CHECKPOINTS_PER_RUNTIME, condemnedRuntimes: chosen.length };
}

/** A copy of `file` (the daemon changes it: start-up reconciliation, deletions) in a fresh state directory. */
function freshCopy(file, tmpRoot, label) {
  const stateDir = mkdtempSync(join(tmpRoot, `retention-${label}-`));
  const path = join(stateDir, 'store.sqlite');
  copyFileSync(file, path);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) copyFileSync(file + suffix, path + suffix);
  return { stateDir, path };
}

function daemonOn(copy, { keepLast }) {
  const env = { RUNTIMECTL_FLEET_LEASE_MS: String(LEASE_MS), RUNTIMECTL_RETENTION_INTERVAL_MS: keepLast === null ? '3600000' : '1000' };
  if (keepLast !== null) env.RUNTIMECTL_RETENTION_KEEP_LAST = String(keepLast);
  return startRuntimed({ args: ['--provider', 'memory', '--state-dir', copy.stateDir, '--store-path', copy.path], env, core: 0 });
}

/** `/metrics`, on a fresh connection each time, tried again after a failed connection (a long pass keeps the daemon busy). */
async function metricsText(url, attempts = 5) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await (await fetch(`${url}/metrics`, { headers: { connection: 'close' } })).text();
    } catch (error) {
      if (attempt >= attempts) throw new Error(`GET /metrics failed ${attempts} times: ${error.cause?.code ?? error.cause?.message ?? error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The retention passes and snapshot deletes the daemon has counted so far. */
async function passCounters(url) {
  const text = await metricsText(url);
  const sample = (pattern) => {
    const line = text.split('\n').find((candidate) => pattern.test(candidate));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };
  return {
    passes: sample(/^runtimectl_operation_duration_seconds_count\{operation="retention",outcome="ok"\}/),
    seconds: sample(/^runtimectl_operation_duration_seconds_sum\{operation="retention",outcome="ok"\}/),
    deletes: sample(/^runtimectl_provider_call_duration_seconds_count\{provider="memory",call="delete_?[sS]napshot",outcome="ok"\}/),
  };
}

/** The durations (ms) of the next `count` passes, one by one (the counter polled every 50 ms; a pass is ≥ 1 s apart from the next). */
async function nextPasses(url, count, timeoutMs = 120_000) {
  const durations = [];
  let last = await passCounters(url);
  const deadline = performance.now() + timeoutMs;
  while (durations.length < count) {
    if (performance.now() > deadline) throw new Error(`no retention pass within ${timeoutMs} ms (${durations.length} of ${count})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await passCounters(url);
    if (now.passes > last.passes) durations.push(((now.seconds - last.seconds) * 1000) / (now.passes - last.passes));
    last = now;
  }
  return { durations, counters: last };
}

/** Row 1: passes over the steady store (plans every snapshotted checkpoint, deletes nothing), and one pass over the condemning copy. */
async function timePasses(stores, { tmpRoot, passes }) {
  const steadyDaemon = await daemonOn(freshCopy(stores.steady, tmpRoot, 'steady'), { keepLast: CHECKPOINTS_PER_RUNTIME });
  let steady;
  try {
    await nextPasses(steadyDaemon.url, 1); // the first pass after start-up (the store's pages just read by reconciliation): not timed
    steady = await nextPasses(steadyDaemon.url, passes);
    const preview = await (await fetch(`${steadyDaemon.url}/api/v1/retention/preview?limit=1`)).json();
    steady.snapshotsToDelete = preview.summary.snapshots_to_delete;
  } finally {
    await stopChild(steadyDaemon.child);
  }
  // The maintenance node's first pass runs right after start-up: on this copy it is the one that deletes.
  const condemningDaemon = await daemonOn(freshCopy(stores.condemning, tmpRoot, 'condemning'), { keepLast: CHECKPOINTS_PER_RUNTIME });
  let condemning;
  try {
    let counters = await passCounters(condemningDaemon.url);
    const deadline = performance.now() + 120_000;
    while (counters.passes === 0) {
      if (performance.now() > deadline) throw new Error('no retention pass within 120 s on the condemning copy');
      await new Promise((resolve) => setTimeout(resolve, 50));
      counters = await passCounters(condemningDaemon.url);
    }
    if (counters.passes !== 1) throw new Error(`the condemning pass could not be told apart: ${counters.passes} passes at the first look`);
    condemning = { ms: counters.seconds * 1000, deleted: counters.deletes };
  } finally {
    await stopChild(condemningDaemon.child);
  }
  return { steadyMs: median(steady.durations), steadyPasses: steady.durations, steadySnapshotsToDelete: steady.snapshotsToDelete, condemning };
}

/** `CONNECTIONS` closed-loop clients, each checkpointing its own clean runtime for `durationSec`; every answer must say it reused the snapshot. */
async function cleanCheckpointLoad(url, runtimeIds, durationSec) {
  const latencies = [];
  let notClean = 0;
  let failed = 0;
  const endAt = performance.now() + durationSec * 1000;
  await Promise.all(
    runtimeIds.map(async (runtimeId) => {
      while (performance.now() < endAt) {
        const sentAt = performance.now();
        const { status, json } = await post(url, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
        latencies.push(performance.now() - sentAt);
        if (status !== 200) failed += 1;
        else if (json.reused_backend_snapshot !== true) notClean += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, p50Ms: quantileOfSorted(latencies, 0.5), p99Ms: quantileOfSorted(latencies, 0.99), notClean, failed };
}

/** Row 2, one arm: the daemon on a copy of the steady store, retention on (passes back to back) or off, under the clean-checkpoint load. */
async function loadArm(stores, { tmpRoot, durationSec, retention }) {
  const daemon = await daemonOn(freshCopy(stores.steady, tmpRoot, retention ? 'load-on' : 'load-off'), { keepLast: retention ? CHECKPOINTS_PER_RUNTIME : null });
  try {
    const runtimeIds = [];
    for (let index = 0; index < CONNECTIONS; index += 1) {
      const opened = await post(daemon.url, '/api/v1/runtimes/open', { conversation_id: 'bench', sender_id: 'retention' });
      if (opened.status !== 200) throw new Error(`open answered ${opened.status}: ${JSON.stringify(opened.json)}`);
      runtimeIds.push(opened.json.runtime.runtime_id);
      await post(daemon.url, '/api/v1/runtimes/checkpoint', { runtime_id: opened.json.runtime.runtime_id });
    }
    if (retention) await nextPasses(daemon.url, 1); // passes are running before the load starts
    const before = await passCounters(daemon.url);
    const load = await cleanCheckpointLoad(daemon.url, runtimeIds, durationSec);
    const after = await passCounters(daemon.url);
    return { ...load, passes: after.passes - before.passes, passSeconds: after.seconds - before.seconds };
  } finally {
    await stopChild(daemon.child);
  }
}

export async function measureRetention({ profile, tmpRoot, log }) {
  const settings = profile.retention;
  const stores = await writeStores(mkdtempSync(join(tmpRoot, 'retention-stores-')), settings.runtimes, log);
  const rounds = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    const passes = await timePasses(stores, { tmpRoot, passes: settings.passes });
    log(`round ${round + 1}: pass over the steady store ${passes.steadyPasses.map((ms) => ms.toFixed(0)).join(', ')} ms; condemning pass ${passes.condemning.ms.toFixed(0)} ms, ${passes.condemning.deleted} snapshots deleted`);
    // Long enough for the load to span at least two passes (they start at most a second apart).
    const durationSec = Math.max(settings.durationSec, Math.ceil((2.5 * passes.steadyMs) / 1000));
    const arms = {};
    for (const retention of round % 2 === 0 ? [true, false] : [false, true]) {
      arms[retention ? 'on' : 'off'] = await loadArm(stores, { tmpRoot, durationSec, retention });
    }
    log(`round ${round + 1}: clean checkpoint p99 ${arms.on.p99Ms.toFixed(1)} ms with passes running (${arms.on.passes} passes completed, ${arms.on.passSeconds.toFixed(1)} s of ${durationSec} s), ${arms.off.p99Ms.toFixed(1)} ms without`);
    rounds.push({ ...passes, durationSec, load: arms });
  }
  const count = stores.checkpoints.toLocaleString('en-US');
  const allClean = rounds.every((round) => Object.values(round.load).every((arm) => arm.notClean === 0 && arm.failed === 0));
  const rows = [
    figureRow({
      id: 'retention.pass.steady',
      measurement: `one retention pass over ${count} checkpoints (${settings.runtimes.toLocaleString('en-US')} runtimes, SQLite), daemon time: \`runtimed\` with \`keep_last ${CHECKPOINTS_PER_RUNTIME}\` (plans every snapshotted checkpoint, deletes none: the steady state)`,
      rounds: rounds.map((round) => round.steadyMs),
      unit: 'ms',
      detail: `passes ${rounds.flatMap((round) => round.steadyPasses).map((ms) => formatValue(ms, 'ms')).join(', ')}; a preview then counted ${rounds[0].steadySnapshotsToDelete} snapshots to delete`,
      target: { text: '≤ 2 s', met: ({ value }) => value <= 2000 },
    }),
    figureRow({
      id: 'retention.pass.deleting',
      measurement: `one retention pass over the same store with \`keep_last ${CHECKPOINTS_PER_RUNTIME - 2}\` on ${stores.condemnedRuntimes.toLocaleString('en-US')} runtimes (one oldest snapshot each condemned), daemon time`,
      rounds: rounds.map((round) => round.condemning.ms),
      unit: 'ms',
      detail: `${rounds.map((round) => round.condemning.deleted).join(', ')} snapshots deleted per round (memory provider \`deleteSnapshot\` calls)`,
    }),
    figureRow({
      id: 'retention.clean-checkpoint.p99',
      measurement: `p99 of clean checkpoints over HTTP (${CONNECTIONS} connections, closed loop, memory provider) while retention passes over ${count} checkpoints run back to back`,
      rounds: rounds.map((round) => round.load.on.p99Ms),
      unit: 'ms',
      detail: `p50 ${formatValue(median(rounds.map((round) => round.load.on.p50Ms)), 'ms')} (without passes ${formatValue(median(rounds.map((round) => round.load.off.p50Ms)), 'ms')}); per round ${rounds.map((round) => `${round.load.on.passes} passes completed (${round.load.on.passSeconds.toFixed(1)} s of them) in ${round.durationSec} s of load`).join('; ')}; ${allClean ? 'every answer `reused_backend_snapshot: true`' : 'NOT every answer a clean 200'}`,
      reference: { label: 'same load and store, retention off', rounds: rounds.map((round) => round.load.off.p99Ms) },
      ratio: { label: 'p99 vs retention off', rounds: rounds.map((round) => round.load.on.p99Ms / round.load.off.p99Ms), unit: '×' },
      target: { text: '≤ 1.5× retention off, every answer a clean checkpoint', met: ({ ratio }) => ratio <= 1.5 && allClean },
    }),
  ];
  const details = [
    `A SQLite store written by the store section's \`populate\` (${settings.runtimes.toLocaleString('en-US')} runtimes × ${CHECKPOINTS_PER_RUNTIME} checkpoints, memory provider records, every other checkpoint reusing its predecessor's snapshot, one runtime in ten a checkout child, one paused, one closed), and a copy of it where ${stores.condemnedRuntimes.toLocaleString('en-US')} idle runtimes carry \`retention: { keep_last: ${CHECKPOINTS_PER_RUNTIME - 2} }\`. Every daemon runs on a fresh copy: \`runtimed --provider memory --store-path <copy>\` on core 0 (SQLite synchronous=full, the default), \`RUNTIMECTL_RETENTION_KEEP_LAST=${CHECKPOINTS_PER_RUNTIME}\`, \`RUNTIMECTL_RETENTION_INTERVAL_MS=1000\` (its minimum), \`RUNTIMECTL_FLEET_LEASE_MS=${LEASE_MS}\` (maintenance, and so a pass, once a second at most).`,
    `Pass time: the daemon's own \`runtimectl_operation_duration_seconds{operation="retention"}\` on \`/metrics\` (\`RuntimeService.applyRetention()\` as the maintenance node runs it), read after each pass; over the steady store the first pass after start-up is not timed, over the condemning copy it is the one timed (the one that deletes). The memory provider is fresh, so start-up reconciliation finds some of the records' backends and snapshots gone and marks them (as it would after a provider lost them); the passes plan over what is left.`,
    `Load: per arm, ${CONNECTIONS} runtimes opened over HTTP and checkpointed once, then ${CONNECTIONS} closed-loop connections checkpoint them for the round's load time (at least ${settings.durationSec} s, and 2.5 × that round's steady pass measured without load; under the load a pass takes longer, so the count of passes completed during it is given with the row); each answer is checked (\`reused_backend_snapshot: true\`). Retention off = no policy (and the interval at an hour). Rounds rotate which arm goes first.`,
  ];
  return { rows, details, raw: { stores: { ...stores, steady: undefined, condemning: undefined }, rounds } };
}
