// Side-by-side benchmark of the local provider against the raw Node primitives it wraps:
// 64 MiB write/read vs fs.promises.writeFile/readFile, and exec("true") vs a bare spawn — of
// `/bin/sh -c true`, and of the same launch the provider makes (into a namespace sandbox when
// isolation is in force, under prlimit for the quota), so the provider's own overhead and the
// cost of isolation and the quota are told apart. Isolation v2 (issue 31) beside what came
// before it: the launch the provider makes now (into the sandbox's cgroup, then nsenter of its
// user, mount, PID, IPC, UTS, cgroup and network namespaces, as the sandbox identity) against
// the launch it made before (nsenter of user, mount and PID namespaces of a sandbox on the host
// network, as the daemon's user), both bare; and the provider's exec with v2's settings against
// the same provider set up as before (network host, the daemon's ids, no limits).
// Not a test: run it with `pnpm --filter @runtimectl/provider-local bench` (builds nothing;
// run `pnpm --filter @runtimectl/provider-local build` first).
//   node bench/local-provider.bench.mjs [--json out.json]
// --json also writes the medians and every timed round as JSON (the repository's `npm run bench`
// reads it). Environment: BENCH_FILE_ROUNDS (default 9), BENCH_EXEC_ROUNDS (default 60).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { decideSandboxFeatures, NamespaceSandbox, resolveSandboxIdentity } from '@runtimectl/namespace-sandbox';
import { createLocalProvider, DEFAULT_WORKSPACE_QUOTA_BYTES } from '../dist/index.js';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const FILE_BYTES = 64 * 1024 * 1024;
const FILE_ROUNDS = Number(process.env.BENCH_FILE_ROUNDS ?? 9);
const EXEC_ROUNDS = Number(process.env.BENCH_EXEC_ROUNDS ?? 60);
const WARMUP_ROUNDS = 3;
const TARGETS = { fileThroughputRatio: 0.8, execLatencyRatio: 1.5 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timed(fn) {
  const startedAt = performance.now();
  await fn();
  return performance.now() - startedAt;
}

function bareSpawn(file = '/bin/sh', args = ['-c', 'true']) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', resolve);
  });
}

const LAUNCHED = ['/usr/bin/prlimit', `--fsize=${DEFAULT_WORKSPACE_QUOTA_BYTES}`, '--', '/bin/sh', '-c', 'true'];
/** What the sandbox's own entry script does inside (cd, then exec): the same for both launches. */
const ENTER_SCRIPT = 'cd -- "$1" || exit 126; shift; exec "$@"';

/**
 * The provider's launch of `sh -c true` without the provider: prlimit, inside a sandbox of its
 * own when isolated — built as the provider builds them now (`v2`: the spec decided for this
 * machine, entered through `launch`), or as before isolation v2 (`before`: a sandbox on the host
 * network with the caller's ids and no limits, entered with nsenter's user, mount and PID
 * namespaces only, exactly the argv the provider used to make).
 */
async function bareLaunch(isolated, directory, which) {
  if (!isolated) return { run: () => bareSpawn(LAUNCHED[0], LAUNCHED.slice(1)), stop: async () => {} };
  const mountPoint = await mkdtemp(join(tmpdir(), 'runtimectl-bench-root-'));
  let spec = { network: 'host' };
  if (which === 'v2') {
    const { identity } = resolveSandboxIdentity('auto');
    const decided = await decideSandboxFeatures({ network: 'egress', ...(identity ? { identity } : {}), limits: { memoryBytes: 2 ** 31, pids: 4096, cpuCores: 1 } }, join(mountPoint, '..', `${basename(mountPoint)}-probe`));
    if (!decided.available) throw new Error(`no isolation: ${decided.reason}`);
    spec = decided.spec;
  }
  const target = which === 'v2' ? '/home/user/workspace' : directory;
  const sandbox = await NamespaceSandbox.start({ ...spec, rootMountPoint: mountPoint, binds: [{ source: directory, target }] });
  const launch =
    which === 'v2'
      ? sandbox.launch(target, LAUNCHED)
      : { file: 'nsenter', args: ['--target', String(sandbox.record.pid), '--user', '--mount', '--pid', '--root', '--', '/bin/sh', '-c', ENTER_SCRIPT, 'sandbox-enter', target, ...LAUNCHED] };
  return {
    spec: which === 'v2' ? { network: spec.network, identity: spec.identity, limits: spec.limits } : spec,
    run: () => bareSpawn(launch.file, launch.args),
    stop: async () => {
      await sandbox.kill(5_000);
      await rm(mountPoint, { recursive: true, force: true });
    },
  };
}

/** Runs the functions alternately (order rotated every round) so drift hits them alike. */
async function sideBySide(rounds, fns) {
  const names = Object.keys(fns);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = -WARMUP_ROUNDS; round < rounds; round += 1) {
    const shift = (round + WARMUP_ROUNDS) % names.length;
    for (const which of [...names.slice(shift), ...names.slice(0, shift)]) {
      const ms = await timed(fns[which]);
      if (round >= 0) times[which].push(ms);
    }
  }
  return { ...Object.fromEntries(names.map((name) => [name, median(times[name])])), samplesMs: times };
}

const root = await mkdtemp(join(tmpdir(), 'runtimectl-local-bench-'));
const rawDir = await mkdtemp(join(tmpdir(), 'runtimectl-raw-bench-'));
try {
  const provider = createLocalProvider({ root });
  const backendId = `bkd_${randomBytes(16).toString('hex')}`;
  const backend = await provider.create({ backendId, runtimeId: 'bench', options: {}, labels: {} });
  // The same provider set up as before isolation v2: the host's network, the daemon's ids, no limits.
  const beforeRoot = await mkdtemp(join(tmpdir(), 'runtimectl-local-bench-before-'));
  const before = createLocalProvider({ root: beforeRoot, network: 'host', sandboxIds: 'caller', limits: { memoryBytes: 0, pids: 0, cpuCores: 0 } });
  const beforeId = `bkd_${randomBytes(16).toString('hex')}`;
  const beforeBackend = await before.create({ backendId: beforeId, runtimeId: 'bench', options: {}, labels: {} });
  const content = randomBytes(FILE_BYTES);
  const rawPath = join(rawDir, 'raw.bin');
  const mib = FILE_BYTES / (1024 * 1024);

  const write = await sideBySide(FILE_ROUNDS, { a: () => backend.writeBytes('bench.bin', content), b: () => writeFile(rawPath, content) });
  const read = await sideBySide(FILE_ROUNDS, { a: () => backend.readBytes('bench.bin'), b: () => readFile(rawPath) });
  const isolation = await provider.isolation();
  const isolated = isolation.mode === 'namespace';
  const launch = await bareLaunch(isolated, rawDir, 'v2');
  const launchBefore = await bareLaunch(isolated, rawDir, 'before');
  // a: the provider; b: a bare `sh -c true`; c: the same launch the provider makes, bare;
  // d: the launch made before isolation v2, bare; e: the provider set up as before v2.
  const exec = await sideBySide(EXEC_ROUNDS, {
    a: () => backend.exec({ command: 'true', maxOutputBytes: 1024 * 1024, timeoutMs: 60_000 }),
    b: () => bareSpawn(),
    c: launch.run,
    d: launchBefore.run,
    e: () => beforeBackend.exec({ command: 'true', maxOutputBytes: 1024 * 1024, timeoutMs: 60_000 }),
  });
  await launch.stop();
  await launchBefore.stop();
  await provider.release({ backendId, resource: backend.resource });
  await before.release({ backendId: beforeId, resource: beforeBackend.resource });
  await rm(beforeRoot, { recursive: true, force: true });

  const rows = [
    { measure: `write ${mib} MiB`, provider: `${(mib / (write.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (write.b / 1000)).toFixed(0)} MiB/s`, ratio: write.b / write.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: `read ${mib} MiB`, provider: `${(mib / (read.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (read.b / 1000)).toFixed(0)} MiB/s`, ratio: read.b / read.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: `exec("true") round trip (isolation: ${isolation.mode})`, provider: `${exec.a.toFixed(2)} ms`, raw: `${exec.c.toFixed(2)} ms (same launch, bare); sh alone ${exec.b.toFixed(2)} ms`, ratio: exec.a / exec.c, target: TARGETS.execLatencyRatio, higherIsBetter: false },
    { measure: 'isolation v2 launch, bare (cgroup, 7 namespaces, sandbox identity)', provider: `${exec.c.toFixed(2)} ms`, raw: `${exec.d.toFixed(2)} ms (the launch before v2, bare)`, ratio: exec.c / exec.d, target: TARGETS.execLatencyRatio, higherIsBetter: false },
    { measure: 'exec("true"): provider with v2 vs set up as before', provider: `${exec.a.toFixed(2)} ms`, raw: `${exec.e.toFixed(2)} ms (network host, daemon ids, no limits)`, ratio: exec.a / exec.e, target: TARGETS.execLatencyRatio, higherIsBetter: false },
  ];

  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}`);
  console.log(`rounds: files ${FILE_ROUNDS}, exec ${EXEC_ROUNDS} (medians, after ${WARMUP_ROUNDS} warm-up rounds, interleaved)\n`);
  console.log('| measure | local provider | raw Node | ratio | target | verdict |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const met = row.higherIsBetter ? row.ratio >= row.target : row.ratio <= row.target;
    const target = row.higherIsBetter ? `≥ ${row.target}× raw throughput` : `≤ ${row.target}× raw latency`;
    console.log(`| ${row.measure} | ${row.provider} | ${row.raw} | ${row.ratio.toFixed(2)}× | ${target} | ${met ? 'met' : 'MISSED'} |`);
  }
  if (args.json) {
    const report = {
      machine: { cores: availableParallelism(), cpu: cpus()[0]?.model, node: process.version, platform: process.platform },
      rounds: { file: FILE_ROUNDS, exec: EXEC_ROUNDS, warmup: WARMUP_ROUNDS },
      isolation,
      launches: { v2: launch.spec, before: launchBefore.spec },
      fileBytes: FILE_BYTES,
      // a = the local provider, b = raw Node (exec: a bare `sh -c true`), c = exec's launch made
      // bare (sandbox, prlimit), d = the launch before isolation v2 made bare, e = the provider
      // set up as before v2; milliseconds per operation.
      write,
      read,
      exec,
      targets: TARGETS,
    };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
  await rm(rawDir, { recursive: true, force: true });
}
