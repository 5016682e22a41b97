// Side-by-side benchmark of the local provider against the raw Node primitives it wraps:
// 64 MiB write/read vs fs.promises.writeFile/readFile, and exec("true") vs a bare spawn — of
// `/bin/sh -c true`, and of the same launch the provider makes (into a namespace sandbox when
// isolation is in force, under prlimit for the quota), so the provider's own overhead and the
// cost of isolation and the quota are told apart.
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
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NamespaceSandbox } from '@runtimectl/namespace-sandbox';
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

/** The provider's launch of `sh -c true` without the provider: prlimit, inside a sandbox of its own when isolated. */
async function bareLaunch(isolated, directory) {
  const argv = ['/usr/bin/prlimit', `--fsize=${DEFAULT_WORKSPACE_QUOTA_BYTES}`, '--', '/bin/sh', '-c', 'true'];
  if (!isolated) return { run: () => bareSpawn(argv[0], argv.slice(1)), stop: async () => {} };
  const mountPoint = await mkdtemp(join(tmpdir(), 'runtimectl-bench-root-'));
  const sandbox = await NamespaceSandbox.start({ rootMountPoint: mountPoint, binds: [{ source: directory, target: directory }], network: true });
  const launch = sandbox.launch(directory, argv);
  return {
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
  const content = randomBytes(FILE_BYTES);
  const rawPath = join(rawDir, 'raw.bin');
  const mib = FILE_BYTES / (1024 * 1024);

  const write = await sideBySide(FILE_ROUNDS, { a: () => backend.writeBytes('bench.bin', content), b: () => writeFile(rawPath, content) });
  const read = await sideBySide(FILE_ROUNDS, { a: () => backend.readBytes('bench.bin'), b: () => readFile(rawPath) });
  const isolation = await provider.isolation();
  const launch = await bareLaunch(isolation.mode === 'namespace', rawDir);
  // a: the provider; b: a bare `sh -c true`; c: the same launch the provider makes, bare.
  const exec = await sideBySide(EXEC_ROUNDS, {
    a: () => backend.exec({ command: 'true', maxOutputBytes: 1024 * 1024, timeoutMs: 60_000 }),
    b: () => bareSpawn(),
    c: launch.run,
  });
  await launch.stop();
  await provider.release({ backendId, resource: backend.resource });

  const rows = [
    { measure: `write ${mib} MiB`, provider: `${(mib / (write.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (write.b / 1000)).toFixed(0)} MiB/s`, ratio: write.b / write.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: `read ${mib} MiB`, provider: `${(mib / (read.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (read.b / 1000)).toFixed(0)} MiB/s`, ratio: read.b / read.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: `exec("true") round trip (isolation: ${isolation.mode})`, provider: `${exec.a.toFixed(2)} ms`, raw: `${exec.c.toFixed(2)} ms (same launch, bare); sh alone ${exec.b.toFixed(2)} ms`, ratio: exec.a / exec.c, target: TARGETS.execLatencyRatio, higherIsBetter: false },
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
      fileBytes: FILE_BYTES,
      // a = the local provider, b = raw Node (exec: a bare `sh -c true`), c = exec's launch made
      // bare (sandbox, prlimit); milliseconds per operation.
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
