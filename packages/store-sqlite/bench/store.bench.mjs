// Store benchmark (not a test): is the SQLite store as fast with 10,000 runtimes and 100,000
// checkpoints as when empty, how long does opening the big file take, and how many bytes does a
// checkpoint cost? Runs the BUILT packages: `pnpm run build` first, then `pnpm run bench`.
//   node bench/store.bench.mjs [--runtimes 10000] [--checkpoints-per-runtime 10]
//                              [--state-bytes 1024] [--iterations 500] [--keep]
//                              [--synchronous full|normal|both] [--json out.json]
// --json also writes every figure as JSON (the repository's `npm run bench` reads it); with
// --keep it names the big file, so a later step can start a daemon on it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../dist/index.js';
import { populate } from './bench-records.mjs';
import { measureLatencies, summary, timed } from './bench-latencies.mjs';

const { values: args } = parseArgs({
  options: {
    runtimes: { type: 'string', default: '10000' },
    'checkpoints-per-runtime': { type: 'string', default: '10' },
    'state-bytes': { type: 'string', default: '1024' },
    iterations: { type: 'string', default: '500' },
    keep: { type: 'boolean', default: false },
    synchronous: { type: 'string', default: 'both' },
    json: { type: 'string' },
  },
});
if (!['full', 'normal', 'both'].includes(args.synchronous)) throw new Error(`--synchronous: expected full, normal or both, got ${args.synchronous}`);
const RUNTIMES = Number(args.runtimes);
const PER_RUNTIME = Number(args['checkpoints-per-runtime']);
const STATE_BYTES = Number(args['state-bytes']);
const ITERATIONS = Number(args.iterations);

const directory = mkdtempSync(join(tmpdir(), 'runtimectl-store-bench-'));
const bigPath = join(directory, 'big.db');
const emptyPath = join(directory, 'empty.db');
const log = (...parts) => console.error('[bench]', ...parts);

function fileBytes(path) {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const bytes = db.pragma('page_count', { simple: true }) * db.pragma('page_size', { simple: true });
  db.close();
  return bytes;
}

// ---- populate the big file ----------------------------------------------------------------
log(`populating ${RUNTIMES} runtimes × ${PER_RUNTIME} checkpoints (session_state ≈ ${STATE_BYTES} B) in ${directory}`);
const big = createSqliteStore({ path: bigPath, synchronous: 'normal' });
const populateStartedAt = performance.now();
const sizeOf = () => statSync(bigPath).size + statSync(`${bigPath}-wal`, { throwIfNoEntry: false })?.size;
const { records } = await populate(big, { runtimes: RUNTIMES, checkpointsPerRuntime: PER_RUNTIME, stateBytes: STATE_BYTES, sizeOf });
const populateMs = performance.now() - populateStartedAt;
await big.close();
log(`populated in ${(populateMs / 1000).toFixed(1)} s`);

// Bytes per checkpoint: the checkpoints table and its indexes, measured by SQLite itself.
const stats = new Database(bigPath, { readonly: true });
const pages = Object.fromEntries(stats.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all().map((row) => [row.name, row.bytes]));
const checkpointCount = stats.prepare('SELECT count(*) AS n FROM checkpoints').get().n;
const sessionDocumentBytes = stats.prepare('SELECT avg(length(session)) AS n FROM checkpoints').get().n;
const sqliteVersion = stats.prepare('SELECT sqlite_version() AS v').get().v;
stats.close();
const checkpointBytes = Object.entries(pages)
  .filter(([name]) => name === 'checkpoints' || name.startsWith('checkpoints_') || name === 'sqlite_autoindex_checkpoints_1')
  .reduce((sum, [, bytes]) => sum + bytes, 0);
const totalBytes = fileBytes(bigPath);

// ---- start-up: open the big file and run the first queries ---------------------------------
function startupInProcess() {
  const startedAt = performance.now();
  const store = createSqliteStore({ path: bigPath });
  return store.countSessionsByStatus().then(async (counts) => {
    const firstQueryMs = performance.now() - startedAt;
    let listed = 0;
    let cursor;
    do {
      const page = await store.listSessions({ limit: 500, ...(cursor ? { cursor } : {}) });
      listed += page.items.length;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const allMs = performance.now() - startedAt;
    await store.close();
    if (listed !== RUNTIMES) throw new Error(`listed ${listed} runtimes, expected ${RUNTIMES}`);
    return { firstQueryMs, allMs };
  });
}
function dropPageCache() {
  try {
    execFileSync('sh', ['-c', 'sync && echo 3 > /proc/sys/vm/drop_caches'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const coldCache = dropPageCache();
const cold = coldCache ? await startupInProcess() : undefined;
const warm = [];
for (let run = 0; run < 5; run += 1) warm.push(await startupInProcess());
let freshProcess;
const freshProcessMs = await timed(async () => {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', `
    const startedAt = performance.now();
    const { createSqliteStore } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
    const importedAt = performance.now();
    const store = createSqliteStore({ path: ${JSON.stringify(bigPath)} });
    await store.countSessionsByStatus();
    const queriedAt = performance.now();
    await store.close();
    console.log(JSON.stringify({ bootMs: startedAt, importMs: importedAt - startedAt, openAndQueryMs: queriedAt - importedAt }));`]);
  freshProcess = JSON.parse(String(output));
});

// ---- latency: the same store calls and service operations on the big and the empty file ----
async function latencies(synchronous) {
  const stores = { big: createSqliteStore({ path: bigPath, synchronous }), empty: createSqliteStore({ path: emptyPath, synchronous }) };
  try {
    return await measureLatencies({ stores, records, runtimes: RUNTIMES, iterations: ITERATIONS, stateBytes: STATE_BYTES, sequence: 10_000_000 + (synchronous === 'full' ? 0 : 1_000_000) });
  } finally {
    for (const store of Object.values(stores)) await store.close();
  }
}

const modes = args.synchronous === 'both' ? ['full', 'normal'] : [args.synchronous];
const measured = {};
for (const mode of modes) {
  log(`measuring latencies (synchronous=${mode}${mode === 'full' ? ', the default' : ''})`);
  measured[mode] = await latencies(mode);
}

// ---- report (markdown, for the README) ------------------------------------------------------
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;
const print = (line = '') => console.log(line);
print(`Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, SQLite ${sqliteVersion}; ${new Date().toISOString().slice(0, 10)}`);
print(`Data: ${RUNTIMES} runtimes, ${checkpointCount} checkpoints, session_state ≈ ${STATE_BYTES} B; ${ITERATIONS} iterations per operation, big and empty interleaved.`);
print();
for (const [mode, results] of Object.entries(measured)) {
  const label = mode === 'full' ? 'synchronous=full (default)' : `synchronous=${mode}`;
  print(`| ${label} | empty p50 | big p50 | ratio p50 | empty p95 | big p95 | ratio p95 |`);
  print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [operation, { big: b, empty: e }] of Object.entries(results)) {
    print(`| ${operation} | ${us(e.p50)} | ${us(b.p50)} | ${(b.p50 / e.p50).toFixed(2)}× | ${us(e.p95)} | ${us(b.p95)} | ${(b.p95 / e.p95).toFixed(2)}× |`);
  }
  print();
}
const warmFirst = summary(warm.map((run) => run.firstQueryMs));
const warmAll = summary(warm.map((run) => run.allMs));
print(`| start-up on the big file | time |`);
print('| --- | ---: |');
if (cold) print(`| open + first query, cold page cache | ${cold.firstQueryMs.toFixed(1)} ms |`);
if (cold) print(`| open + list all ${RUNTIMES} runtimes (pages of 500), cold page cache | ${cold.allMs.toFixed(1)} ms |`);
print(`| open + first query, warm (median of 5) | ${warmFirst.p50.toFixed(1)} ms |`);
print(`| open + list all ${RUNTIMES} runtimes (pages of 500), warm | ${warmAll.p50.toFixed(1)} ms |`);
print(`| fresh \`node\` process, wall clock: start, import, open, first query, exit | ${freshProcessMs.toFixed(0)} ms |`);
print(`| … of which Node boot / importing the store (and core, zod, better-sqlite3) / open + first query | ${freshProcess.bootMs.toFixed(0)} / ${freshProcess.importMs.toFixed(0)} / ${freshProcess.openAndQueryMs.toFixed(1)} ms |`);
print();
print(`| size | bytes |`);
print('| --- | ---: |');
print(`| database file (after checkpointing the WAL) | ${(totalBytes / 2 ** 20).toFixed(1)} MiB |`);
print(`| checkpoints table + its indexes, per checkpoint | ${(checkpointBytes / checkpointCount).toFixed(0)} B |`);
print(`| … of which the JSON session snapshot (avg length) | ${sessionDocumentBytes.toFixed(0)} B |`);
for (const [name, bytes] of Object.entries(pages).filter(([name]) => name.startsWith('checkpoints_') || name === 'sqlite_autoindex_checkpoints_1')) {
  print(`| … of which index ${name} | ${(bytes / checkpointCount).toFixed(0)} B |`);
}
print(`| populate time (one transaction per ${500} runtimes) | ${(populateMs / 1000).toFixed(1)} s |`);
if (!coldCache) print('\n(cold-cache start-up not measured: dropping the page cache needs root)');

if (args.json) {
  const report = {
    machine: { cores: cpus().length, cpu: cpus()[0]?.model.trim(), memoryGiB: totalmem() / 2 ** 30, node: process.version, sqlite: sqliteVersion },
    data: { runtimes: RUNTIMES, checkpoints: checkpointCount, stateBytes: STATE_BYTES, iterations: ITERATIONS },
    latenciesMs: measured,
    startupMs: { coldFirstQuery: cold?.firstQueryMs ?? null, coldListAll: cold?.allMs ?? null, warmFirstQuery: warmFirst, warmListAll: warmAll, freshProcess: freshProcessMs, freshProcessParts: freshProcess },
    sizes: { databaseBytes: totalBytes, checkpointBytesEach: checkpointBytes / checkpointCount, sessionDocumentBytes },
    populateMs,
    ...(args.keep ? { kept: { directory, bigPath, emptyPath } } : {}),
  };
  writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
}
if (args.keep) log(`kept ${directory}`);
else rmSync(directory, { recursive: true, force: true });
