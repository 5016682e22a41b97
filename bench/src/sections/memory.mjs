// Resident memory per live runtime and per checkpoint record: a daemon (startDaemon in a process
// of its own, see ../daemon-in-process.mjs) is measured after garbage collection, before and
// after each step of K more runtimes opened / K more checkpoints taken over HTTP. Bytes per item
// = growth over a step / K; the median over the steps is reported, with the smallest and largest.
// Checkpoints are of clean runtimes (the reuse path), so they add records, not provider snapshots.
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { exited } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { median } from '../stats.mjs';

const CHILD = fileURLToPath(new URL('../daemon-in-process.mjs', import.meta.url));
const CONCURRENCY = 8;

function startDaemonProcess(flags) {
  const child = fork(CHILD, [JSON.stringify(flags)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`in-process daemon exited with ${code}`)));
    child.once('message', ({ url }) => {
      child.removeAllListeners('exit');
      resolve({
        url,
        measure: () =>
          new Promise((done) => {
            child.once('message', ({ memory }) => done(memory));
            child.send('measure');
          }),
        close: async () => {
          child.send('close');
          await exited(child);
        },
      });
    });
  });
}

async function measureStore(storeKind, { profile, tmpRoot, log }) {
  const flags = {
    'http.port': 0,
    state_dir: mkdtempSync(join(tmpRoot, `memory-${storeKind}-`)),
    'store.kind': storeKind,
    // Memory does not depend on it; a full fsync per request would only make the run longer.
    ...(storeKind === 'sqlite' ? { 'store.synchronous': 'normal' } : {}),
    'runtimes.default_provider': 'memory',
  };
  const daemon = await startDaemonProcess(flags);
  const api = apiClient(daemon.url);
  const { steps, perStep } = profile.memory;
  const open = (runtimeId, provider) => api.post('/api/v1/runtimes/open', { runtime_id: runtimeId, conversation_id: 'bench', sender_id: 'bench', provider });
  try {
    // Warm-up: JIT, the allocator's first pages, the store's prepared statements.
    for (let index = 0; index < 50; index += 1) {
      await open(`warm-${index}`, 'memory');
      await api.post('/api/v1/runtimes/write-file', { runtime_id: `warm-${index}`, path: 'a.txt', content_base64: base64('a') });
      await api.post('/api/v1/runtimes/checkpoint', { runtime_id: `warm-${index}` });
    }
    const writers = Array.from({ length: CONCURRENCY }, (_, index) => `checkpointed-${index}`);
    for (const runtimeId of writers) {
      await open(runtimeId, 'memory');
      await api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'a.txt', content_base64: base64('a') });
      await api.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    }
    const phases = {
      'runtime (local provider)': (step, index) => open(`local-${step}-${index}`, 'local'),
      'runtime (memory provider)': (step, index) => open(`memory-${step}-${index}`, 'memory'),
      // Each worker checkpoints its own clean runtime, so no two checkpoints of one runtime overlap.
      'checkpoint record': (_step, index) => api.post('/api/v1/runtimes/checkpoint', { runtime_id: writers[index % CONCURRENCY] }),
    };
    const perItem = {};
    for (const [phase, task] of Object.entries(phases)) {
      perItem[phase] = { rss: [], heap: [] };
      let before = await daemon.measure();
      for (let step = 0; step < steps; step += 1) {
        // Worker w takes indexes w, w + 8, …: with the checkpoint task's index % 8, one runtime per worker.
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, worker) => {
            for (let index = worker; index < perStep; index += CONCURRENCY) await task(step, index);
          }),
        );
        const after = await daemon.measure();
        perItem[phase].rss.push((after.rss - before.rss) / perStep);
        perItem[phase].heap.push((after.heapUsed - before.heapUsed) / perStep);
        before = after;
      }
      log(`${storeKind} store, ${phase}: ${median(perItem[phase].rss).toFixed(0)} B resident, ${median(perItem[phase].heap).toFixed(0)} B of heap each`);
    }
    return perItem;
  } finally {
    await daemon.close();
  }
}

export async function measureMemory(context) {
  const stores = { sqlite: await measureStore('sqlite', context), memory: await measureStore('memory', context) };
  const { steps, perStep } = context.profile.memory;
  const row = (id, measurement, series) =>
    figureRow({ id, measurement, rounds: series.rss, unit: 'B', detail: `${formatValue(median(series.heap), 'B')} of JS heap` });
  const rows = [
    row('memory.runtime.local.sqlite', 'resident memory per live runtime (local provider, SQLite store)', stores.sqlite['runtime (local provider)']),
    row('memory.runtime.memory.sqlite', 'resident memory per live runtime (memory provider: its files are in the daemon too)', stores.sqlite['runtime (memory provider)']),
    row('memory.checkpoint.sqlite', 'resident memory per checkpoint record (SQLite store: records on disk)', stores.sqlite['checkpoint record']),
    row('memory.checkpoint.memory', 'resident memory per checkpoint record (memory store: records in the daemon)', stores.memory['checkpoint record']),
  ];
  const details = [
    `A daemon started with \`startDaemon\` (@runtimectl/daemon) in its own process with --expose-gc, driven over HTTP ${CONCURRENCY} requests at a time; after a warm-up, ${steps} steps of ${perStep} runtimes opened or ${perStep} clean checkpoints taken, garbage collected before each reading. Per item = growth over a step / ${perStep}; medians over the steps (resident set and JS heap).`,
    '',
    '| store | item | resident per item | JS heap per item |',
    '| --- | --- | ---: | ---: |',
  ];
  for (const [store, phases] of Object.entries(stores)) {
    for (const [phase, series] of Object.entries(phases)) {
      details.push(`| ${store} | ${phase} | ${formatValue(median(series.rss), 'B')} | ${formatValue(median(series.heap), 'B')} |`);
    }
  }
  return { rows, details, raw: stores };
}
