// Side-by-side benchmark of the local provider against the raw Node primitives it wraps:
// 64 MiB write/read vs fs.promises.writeFile/readFile, and exec("true") vs a bare spawn.
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
import { createLocalProvider } from '../dist/index.js';

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

function bareSpawn() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true']);
    child.once('error', reject);
    child.once('close', resolve);
  });
}

/** Runs `a` and `b` alternately (order flipped every round) so drift hits both alike. */
async function sideBySide(rounds, a, b) {
  const times = { a: [], b: [] };
  for (let round = -WARMUP_ROUNDS; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const which of order) {
      const ms = await timed(which === 'a' ? a : b);
      if (round >= 0) times[which].push(ms);
    }
  }
  return { a: median(times.a), b: median(times.b), samplesMs: times };
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

  const write = await sideBySide(
    FILE_ROUNDS,
    () => backend.writeBytes('bench.bin', content),
    () => writeFile(rawPath, content),
  );
  const read = await sideBySide(
    FILE_ROUNDS,
    () => backend.readBytes('bench.bin'),
    () => readFile(rawPath),
  );
  const exec = await sideBySide(
    EXEC_ROUNDS,
    () => backend.exec({ command: 'true', maxOutputBytes: 1024 * 1024, timeoutMs: 60_000 }),
    bareSpawn,
  );
  await provider.release({ backendId, resource: backend.resource });

  const rows = [
    { measure: `write ${mib} MiB`, provider: `${(mib / (write.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (write.b / 1000)).toFixed(0)} MiB/s`, ratio: write.b / write.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: `read ${mib} MiB`, provider: `${(mib / (read.a / 1000)).toFixed(0)} MiB/s`, raw: `${(mib / (read.b / 1000)).toFixed(0)} MiB/s`, ratio: read.b / read.a, target: TARGETS.fileThroughputRatio, higherIsBetter: true },
    { measure: 'exec("true") round trip', provider: `${exec.a.toFixed(2)} ms`, raw: `${exec.b.toFixed(2)} ms`, ratio: exec.a / exec.b, target: TARGETS.execLatencyRatio, higherIsBetter: false },
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
      fileBytes: FILE_BYTES,
      // a = the local provider, b = raw Node; milliseconds per operation.
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
