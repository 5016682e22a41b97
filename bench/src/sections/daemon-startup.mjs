// `runtimed` start to ready on a state directory whose SQLite store holds the store section's
// 100,000 checkpoints: the real program spawned, timed from spawn to its start banner (printed
// once the store is open, start-up reconciliation has run and the port listens). Next to it,
// the same daemon on an empty store. Rounds alternate which goes first.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { cpuSecondsOf, dropPageCache, startRuntimed, stopChild } from '../processes.mjs';
import { median } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

/**
 * Starts the daemon and times it; with `countRuntimes`, also lists its runtimes over HTTP (after
 * timing). `store` points it at another store (flags and variables; the PostgreSQL section).
 */
export async function timeStart(stateDir, storePath, { countRuntimes = false, store = { args: [], env: {} } } = {}) {
  const daemon = await startRuntimed({ args: ['--state-dir', stateDir, ...(storePath ? ['--store-path', storePath] : []), ...store.args], env: store.env });
  try {
    // CPU time until ready: unlike the wall clock, it barely moves when other work shares the machine.
    const cpuSeconds = cpuSecondsOf(daemon.child.pid);
    const timing = { readyMs: daemon.readyMs, cpuMs: cpuSeconds === undefined ? Number.NaN : cpuSeconds * 1000 };
    return countRuntimes ? { ...timing, listed: await listedRuntimes(daemon.url) } : timing;
  } finally {
    await stopChild(daemon.child);
  }
}

/** How many runtimes the daemon serves: proof it really opened the big store. */
async function listedRuntimes(url) {
  let total = 0;
  let cursor;
  do {
    const response = await fetch(`${url}/api/v1/runtimes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const page = await response.json();
    total += page.runtimes.length;
    cursor = page.next_cursor;
  } while (cursor);
  return total;
}

export async function measureDaemonStartup({ profile, tmpRoot, shared, log }) {
  const big = shared.bigStore;
  if (!big) throw new Error('start-up runs on the store section’s 100,000-checkpoint file, and the store section did not produce it');
  const bigState = mkdtempSync(join(tmpRoot, 'startup-big-'));
  const emptyState = mkdtempSync(join(tmpRoot, 'startup-empty-'));
  await timeStart(emptyState); // creates the empty store and the installation id: not timed
  // One cold start each (after dropping the page cache: node, the daemon's modules and the store
  // are read from disk), empty first, so the store's share of a cold start can be told apart.
  let cold = null;
  if (profile.startup.cold && dropPageCache()) {
    const empty = (await timeStart(emptyState)).readyMs;
    dropPageCache();
    cold = { big: (await timeStart(bigState, big.path)).readyMs, empty };
    log(`cold page cache: ${cold.big.toFixed(0)} ms with ${big.checkpoints} checkpoints, ${cold.empty.toFixed(0)} ms empty`);
  }
  const rounds = [];
  let listed;
  for (let round = 0; round < profile.startup.rounds; round += 1) {
    const order = round % 2 === 0 ? ['big', 'empty'] : ['empty', 'big'];
    const times = {};
    for (const which of order) {
      const last = round === profile.startup.rounds - 1;
      const started = await timeStart(which === 'big' ? bigState : emptyState, which === 'big' ? big.path : undefined, { countRuntimes: last && which === 'big' });
      times[which] = started.readyMs;
      times[`${which}CpuMs`] = started.cpuMs;
      listed ??= started.listed;
    }
    rounds.push(times);
    log(`round ${round + 1}: ${times.big.toFixed(0)} ms with ${big.checkpoints} checkpoints, ${times.empty.toFixed(0)} ms empty`);
  }
  const count = big.checkpoints.toLocaleString('en-US');
  const reference = { label: 'same daemon, empty store', rounds: rounds.map((round) => round.empty) };
  const rows = [
    figureRow({
      id: 'startup.big.warm',
      measurement: `\`runtimed\` start to ready (spawn → start banner) with ${count} checkpoints, warm page cache`,
      rounds: rounds.map((round) => round.big),
      unit: 'ms',
      detail: `CPU time until ready ${formatValue(median(rounds.map((round) => round.bigCpuMs)), 'ms')} (empty store: ${formatValue(median(rounds.map((round) => round.emptyCpuMs)), 'ms')})`,
      reference,
      ratio: { label: 'vs empty', rounds: rounds.map((round) => round.big / round.empty), unit: '×' },
      target: { text: '≤ 2 s', met: ({ value }) => value <= 2000 },
    }),
  ];
  if (cold !== null) {
    rows.push(
      figureRow({
        id: 'startup.big.cold',
        measurement: `\`runtimed\` start to ready with ${count} checkpoints, cold page cache (one start after dropping it)`,
        rounds: [cold.big],
        unit: 'ms',
        reference: { label: 'same daemon, empty store, cold page cache', value: cold.empty },
        ratio: { label: 'vs empty', rounds: [cold.big / cold.empty], unit: '×' },
        target: { text: '≤ 2 s', met: ({ value }) => value <= 2000 },
      }),
    );
  }
  const details = [
    `\`node apps/daemon/dist/main.js --port 0 --state-dir <dir> --store-path <the store section's file>\` with the default configuration otherwise (SQLite, the fs provider with local beside it, logs at info): ${big.runtimes.toLocaleString('en-US')} runtimes and ${count} checkpoints, plus the ${(listed - big.runtimes).toLocaleString('en-US')} runtimes (checkout children) and their checkpoints that the store section's latency runs added; once ready it listed ${listed.toLocaleString('en-US')} runtimes over HTTP.`,
    'The records belong to the memory provider, which this daemon does not enable: start-up reconciliation reads only the runtimes bound to a backend of an enabled provider (`listSessions({ status: "idle", backendProviderId })`, served by an index), so here it reads none of them.',
    '',
    `Median with ${count} checkpoints ${formatValue(rows[0].value.median, 'ms')}, empty ${formatValue(rows[0].reference.median, 'ms')}${cold === null ? '; the cold start was not measured (only the full run measures it, and dropping the page cache needs root)' : `; cold page cache ${formatValue(cold.big, 'ms')} with, ${formatValue(cold.empty, 'ms')} without them`}.`,
  ];
  return { rows, details, raw: { rounds, cold, listedRuntimes: listed } };
}
