// Checkpoint latency with 100,000 checkpoints in SQLite against an empty store: the existing
// packages/store-sqlite/bench/store.bench.mjs, run as a child process with --json. It keeps
// its 100,000-checkpoint file (--keep) for the start-up section, which deletes it afterwards.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'store-sqlite', 'bench', 'store.bench.mjs');
const us = (ms) => formatValue(ms * 1000, 'µs');

export async function measureStore({ profile, tmpRoot, shared }) {
  const out = join(tmpRoot, 'store-bench.json');
  const { runtimes, checkpointsPerRuntime, iterations, synchronous } = profile.store;
  const args = ['--runtimes', String(runtimes), '--checkpoints-per-runtime', String(checkpointsPerRuntime), '--iterations', String(iterations), '--synchronous', synchronous];
  await runNodeScript(SCRIPT, [...args, '--keep', '--json', out], { label: 'store.bench', cwd: repoPath('packages', 'store-sqlite') });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  shared.bigStore = { path: report.kept.bigPath, checkpoints: report.data.checkpoints, runtimes: report.data.runtimes };
  // The PostgreSQL section sets its figures next to these (same records, same operations).
  shared.sqliteLatenciesMs = report.latenciesMs;
  const previousCleanup = shared.cleanup;
  shared.cleanup = async () => {
    await previousCleanup?.();
    rmSync(report.kept.directory, { recursive: true, force: true });
  };

  const count = report.data.checkpoints.toLocaleString('en-US');
  const rows = Object.entries(report.latenciesMs).map(([mode, operations]) => {
    const { big, empty } = operations['RuntimeService.checkpoint'];
    return figureRow({
      id: `store.checkpoint.${mode}`,
      measurement: `checkpoint latency (RuntimeService over the memory provider, a write before each) with ${count} checkpoints in SQLite, synchronous=${mode}${mode === 'full' ? ' (the default)' : ''}: p50`,
      // One figure over all interleaved iterations: the quartiles are its spread.
      rounds: [big.p50 * 1000],
      unit: 'µs',
      detail: `p25–p75 ${us(big.p25)}–${us(big.p75)}, p95 ${us(big.p95)}; ${big.samples} samples`,
      reference: { label: 'empty SQLite store p50', value: empty.p50 * 1000, unit: 'µs' },
      ratio: { label: 'p50 vs empty', rounds: [big.p50 / empty.p50], unit: '×' },
      target: { text: '≤ 1.5× the empty store', met: ({ ratio }) => ratio <= 1.5 },
    });
  });
  const details = [
    `\`node packages/store-sqlite/bench/store.bench.mjs ${args.join(' ')}\`: ${report.data.runtimes.toLocaleString('en-US')} runtimes, ${count} checkpoints, session_state ≈ ${report.data.stateBytes} B, populated in ${(report.populateMs / 1000).toFixed(1)} s; each operation ${report.data.iterations} times on the big and the empty file, interleaved.`,
    '',
  ];
  for (const [mode, operations] of Object.entries(report.latenciesMs)) {
    details.push(`| synchronous=${mode} | empty p50 | big p50 | ratio p50 | empty p95 | big p95 | ratio p95 |`, '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [operation, { big, empty }] of Object.entries(operations)) {
      details.push(`| ${operation} | ${us(empty.p50)} | ${us(big.p50)} | ${(big.p50 / empty.p50).toFixed(2)}× | ${us(empty.p95)} | ${us(big.p95)} | ${(big.p95 / empty.p95).toFixed(2)}× |`);
    }
    details.push('');
  }
  const startup = report.startupMs;
  details.push(
    `Opening the big file in-process: first query ${formatValue(startup.warmFirstQuery.p50, 'ms')} warm${startup.coldFirstQuery === null ? '' : `, ${formatValue(startup.coldFirstQuery, 'ms')} with a cold page cache`}; listing all ${report.data.runtimes.toLocaleString('en-US')} runtimes ${formatValue(startup.warmListAll.p50, 'ms')}. Database ${(report.sizes.databaseBytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(report.sizes.checkpointBytesEach)} B per checkpoint with its indexes.`,
  );
  return { rows, details, raw: { ...report, kept: undefined } };
}
