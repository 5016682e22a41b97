// The layers snapshot store (overlayfs) against the copy store and `cp -a`, on the workspace of
// bench/workspace.mjs (10,000 files / 200 MiB), every figure in one run, per round:
//   - checkout of a checkpoint                         layers vs copy vs `cp -a` of the workspace
//   - first checkpoint of a checked-out workspace      layers vs copy
//   - checkpoint after changing one 1 MiB file         layers vs copy (each store's manifest comes
//                                                      with it: the copy store's from its stat
//                                                      index walk, the layers store's as a delta)
// Needs root and overlayfs (the store's probe decides); exits 2 with the reason otherwise. Not a
// test: `pnpm --filter @runtimectl/provider-fs bench:layers` after building the package.
//   node bench/layers.bench.mjs [--json out.json]
// Environment: BENCH_ROUNDS (default 3), BENCH_DIR (parent of the scratch directory).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFsProvider } from '../dist/index.js';
import { log, median, run, timedAfterSync } from './timing.mjs';
import { changeOneMiBFile, makeWorkspace } from './workspace.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;

const scratch = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'runtimectl-layers-bench-'));
const stores = {};
const sources = {};
try {
  for (const mode of ['copy', 'layers']) {
    stores[mode] = createFsProvider({ root: join(scratch, `${mode}-workspaces`), snapshots: join(scratch, `${mode}-store`), isolation: 'none', workspaceQuotaBytes: 0, snapshotStore: mode });
    const inForce = await stores[mode].snapshotStoreMode().catch((error) => ({ mode: 'copy', reason: error.message }));
    if (inForce.mode !== mode) {
      log(`layers.bench: the ${mode} store is not available here (${inForce.reason ?? 'copy in force'})`);
      process.exit(2);
    }
  }
  const samples = { cp: [], copy: { checkout: [], first: [], changed: [] }, layers: { checkout: [], first: [], changed: [] } };
  // One source workspace per store, checkpointed once: each round checks it out anew.
  let workspaceShape;
  for (const [mode, fs] of Object.entries(stores)) {
    const backend = await fs.create({ backendId: newBackendId(), runtimeId: `source-${mode}`, options: {}, labels: {} });
    workspaceShape = await makeWorkspace(backend.workspaceRoot);
    const attached = await fs.attach({ backendId: backend.backendId, resource: backend.resource });
    sources[mode] = { backendId: backend.backendId, resource: backend.resource, root: backend.workspaceRoot, snapshotId: (await fs.checkpoint(attached, { labels: {} })).snapshotId };
  }
  log(`workspace: ${workspaceShape.files} files, ${(workspaceShape.bytes / 2 ** 20).toFixed(0)} MiB`);
  let change = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const copyTarget = join(scratch, 'cp-a');
    samples.cp.push((await timedAfterSync(() => run('cp', ['-a', sources.copy.root, copyTarget]))).ms);
    await rm(copyTarget, { recursive: true });
    for (const mode of round % 2 ? ['layers', 'copy'] : ['copy', 'layers']) {
      const fs = stores[mode];
      const request = { backendId: newBackendId(), runtimeId: `checkout-${mode}`, options: {}, labels: {}, snapshotId: sources[mode].snapshotId };
      const checkout = await timedAfterSync(() => fs.checkout(request));
      samples[mode].checkout.push(checkout.ms);
      const attached = await fs.attach({ backendId: request.backendId, resource: checkout.result.resource });
      samples[mode].first.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
      await changeOneMiBFile(checkout.result.workspaceRoot, workspaceShape.oneMiB[change++ % workspaceShape.oneMiB.length]);
      samples[mode].changed.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
      await fs.release({ backendId: request.backendId, resource: checkout.result.resource });
    }
    log(`round ${round + 1}/${ROUNDS}: cp -a ${samples.cp.at(-1).toFixed(0)} ms; ` +
      ['copy', 'layers'].map((mode) => `${mode} checkout ${samples[mode].checkout.at(-1).toFixed(0)} ms, first checkpoint ${samples[mode].first.at(-1).toFixed(0)} ms, after a 1 MiB change ${samples[mode].changed.at(-1).toFixed(0)} ms`).join('; '));
  }
  const ratio = (a, b) => a.map((ms, i) => ms / b[i]);
  const rows = [
    ['checkout', 'layers', samples.layers.checkout, 'cp -a', samples.cp],
    ['checkout', 'copy', samples.copy.checkout, 'cp -a', samples.cp],
    ['first checkpoint of a checkout', 'layers', samples.layers.first, 'copy', samples.copy.first],
    ['checkpoint after a 1 MiB change', 'layers', samples.layers.changed, 'copy', samples.copy.changed],
  ];
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; ${ROUNDS} rounds (medians of per-round ratios)\n`);
  console.log('| measure | store | median | reference | reference median | ratio |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [measure, store, values, reference, referenceValues] of rows) {
    console.log(`| ${measure} | ${store} | ${median(values).toFixed(0)} ms | ${reference} | ${median(referenceValues).toFixed(0)} ms | ${median(ratio(values, referenceValues)).toFixed(3)}× |`);
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ machine: { cores: availableParallelism(), node: process.version }, rounds: ROUNDS, workspace: workspaceShape, samplesMs: samples }, null, 2)}\n`);
} finally {
  // Layered workspaces are mounts: unmount them before the scratch directory goes.
  for (const [mode, source] of Object.entries(sources)) await stores[mode].release(source).catch(() => {});
  await rm(scratch, { recursive: true, force: true });
}
