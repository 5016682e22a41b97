// The layers snapshot store (overlayfs) against the copy store, `cp -a`, git and tar, on the
// workspace of bench/workspace.mjs (10,000 files / 200 MiB), every figure in one run:
//   - first checkpoint of the workspace (once)         layers vs copy vs `git add -A && git commit`
//                                                      of the same tree vs a durable tar
//   per round:
//   - checkout of a checkpoint                         layers vs copy vs `cp -a` of the workspace
//   - first checkpoint of a checked-out workspace      layers vs copy
//   - checkpoint after changing one 1 MiB file         layers vs copy (each store's manifest comes
//                                                      with it: the copy store's from its stat
//                                                      index walk, the layers store's as a delta)
//                                                      vs `git add -A && git commit` of the same change
// Isolation as runtimed's default (namespaces where they work): a checkpoint with nothing
// running seals by rename. Needs root and overlayfs (the store's probe decides); exits 2 with the
// reason otherwise. Not a test: `pnpm --filter @runtimectl/provider-fs bench:layers` after
// building the package; `npm run bench` runs it as its fs-layers section.
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
    stores[mode] = createFsProvider({ root: join(scratch, `${mode}-workspaces`), snapshots: join(scratch, `${mode}-store`), workspaceQuotaBytes: 0, snapshotStore: mode });
    const inForce = await stores[mode].snapshotStoreMode().catch((error) => ({ mode: 'copy', reason: error.message }));
    if (inForce.mode !== mode) {
      log(`layers.bench: the ${mode} store is not available here (${inForce.reason ?? 'copy in force'})`);
      process.exit(2);
    }
  }
  const samples = { cp: [], gitChanged: [], copy: { checkout: [], first: [], changed: [] }, layers: { checkout: [], first: [], changed: [] } };
  const firstOfWorkspace = {};
  // One source workspace per store, checkpointed once (its first checkpoint): each round checks it out anew.
  let workspaceShape;
  for (const [mode, fs] of Object.entries(stores)) {
    const backend = await fs.create({ backendId: newBackendId(), runtimeId: `source-${mode}`, options: {}, labels: {} });
    // The host directory: with namespaces, `workspaceRoot` is where commands see it.
    const root = await fs.local.workspaceDirectory(backend.resource);
    workspaceShape = await makeWorkspace(root);
    const attached = await fs.attach({ backendId: backend.backendId, resource: backend.resource });
    const first = await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }));
    firstOfWorkspace[mode] = first.ms;
    sources[mode] = { backendId: backend.backendId, resource: backend.resource, root, snapshotId: first.result.snapshotId };
  }
  // The same tree in a git repository, and as a durable tar: the references of a first checkpoint.
  const repository = join(scratch, 'git');
  run('cp', ['-a', sources.copy.root, repository]);
  // The copy keeps the sandbox identity as owner: git must be told the repository is safe.
  const git = (...argv) => run('git', ['-C', repository, '-c', `safe.directory=${repository}`, '-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...argv]);
  git('init', '-q');
  firstOfWorkspace.git = (await timedAfterSync(() => { git('add', '-A'); git('commit', '-q', '-m', 'first'); })).ms;
  const archive = join(scratch, 'workspace.tar');
  firstOfWorkspace.durableTar = (await timedAfterSync(() => { run('tar', ['-cf', archive, '-C', sources.copy.root, '.']); run('sync', ['-f', archive]); })).ms;
  await rm(archive);
  log(`first checkpoint of the workspace: layers ${firstOfWorkspace.layers.toFixed(0)} ms, copy ${firstOfWorkspace.copy.toFixed(0)} ms; git add -A && git commit ${firstOfWorkspace.git.toFixed(0)} ms; tar -cf + sync ${firstOfWorkspace.durableTar.toFixed(0)} ms`);
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
      await changeOneMiBFile(await fs.local.workspaceDirectory(checkout.result.resource), workspaceShape.oneMiB[change++ % workspaceShape.oneMiB.length]);
      samples[mode].changed.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
      await fs.release({ backendId: request.backendId, resource: checkout.result.resource });
    }
    await changeOneMiBFile(repository, workspaceShape.oneMiB[change++ % workspaceShape.oneMiB.length]);
    samples.gitChanged.push((await timedAfterSync(() => { git('add', '-A'); git('commit', '-q', '-m', `round ${round + 1}`); })).ms);
    log(`round ${round + 1}/${ROUNDS}: cp -a ${samples.cp.at(-1).toFixed(0)} ms; git add -A && git commit of a 1 MiB change ${samples.gitChanged.at(-1).toFixed(0)} ms; ` +
      ['copy', 'layers'].map((mode) => `${mode} checkout ${samples[mode].checkout.at(-1).toFixed(0)} ms, first checkpoint ${samples[mode].first.at(-1).toFixed(0)} ms, after a 1 MiB change ${samples[mode].changed.at(-1).toFixed(0)} ms`).join('; '));
  }
  const ratio = (a, b) => a.map((ms, i) => ms / b[i]);
  const rows = [
    ['checkout', 'layers', samples.layers.checkout, 'cp -a', samples.cp],
    ['checkout', 'copy', samples.copy.checkout, 'cp -a', samples.cp],
    ['first checkpoint of a checkout', 'layers', samples.layers.first, 'copy', samples.copy.first],
    ['checkpoint after a 1 MiB change', 'layers', samples.layers.changed, 'copy', samples.copy.changed],
    ['checkpoint after a 1 MiB change', 'layers', samples.layers.changed, 'git add -A && git commit', samples.gitChanged],
    ['first checkpoint of the workspace', 'layers', [firstOfWorkspace.layers], 'git add -A && git commit', [firstOfWorkspace.git]],
    ['first checkpoint of the workspace', 'layers', [firstOfWorkspace.layers], 'tar -cf + sync', [firstOfWorkspace.durableTar]],
    ['first checkpoint of the workspace', 'copy', [firstOfWorkspace.copy], 'git add -A && git commit', [firstOfWorkspace.git]],
  ];
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; ${ROUNDS} rounds (medians of per-round ratios)\n`);
  console.log('| measure | store | median | reference | reference median | ratio |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [measure, store, values, reference, referenceValues] of rows) {
    console.log(`| ${measure} | ${store} | ${median(values).toFixed(0)} ms | ${reference} | ${median(referenceValues).toFixed(0)} ms | ${median(ratio(values, referenceValues)).toFixed(3)}× |`);
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ machine: { cores: availableParallelism(), node: process.version }, rounds: ROUNDS, workspace: workspaceShape, samplesMs: samples, firstOfWorkspaceMs: firstOfWorkspace }, null, 2)}\n`);
} finally {
  // Layered workspaces are mounts: unmount them before the scratch directory goes.
  for (const [mode, source] of Object.entries(sources)) await stores[mode].release(source).catch(() => {});
  await rm(scratch, { recursive: true, force: true });
}
