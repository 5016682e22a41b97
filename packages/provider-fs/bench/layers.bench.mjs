// The layers snapshot store (overlayfs) against the copy store, `cp -a`, git, tar and restic, on
// three workspaces, every figure in one run:
//   W1  bench/workspace.mjs: 10,000 files / 200 MiB
//   W3  the same mix ×4: 40,000 files / 800 MiB
//   W2  a Node project with a real node_modules: this repository's installed dependencies
//       (`node_modules`, links and all, as pnpm laid them out) and ten 1 MiB data files
// Once per workspace:
//   - first checkpoint of the workspace     layers vs `git add -A && git commit` of the same tree,
//                                           a durable tar (`tar -cf` + `sync -f`) and `restic
//                                           backup` (where Debian's restic is installed);
//                                           on W1 the copy store too
//   - disk for 11 checkpoints (W1)          the first and 10 more, each after a 1 MiB change,
//                                           vs one copy of the workspace (blocks, as `du`)
// Per round, per workspace:
//   - checkout of its first checkpoint      layers (on W1: copy store and `cp -a` too)
//   - first checkpoint of that checkout     layers (W1: copy store too)
//   - checkpoint after changing one 1 MiB file, vs git and restic of the same change
// Isolation as runtimed's default (namespaces where they work): a checkpoint with nothing running
// seals by rename. Needs root and overlayfs (the store's probe decides); exits 2 with the reason
// otherwise. Not a test: `pnpm --filter @runtimectl/provider-fs bench:layers` after building the
// package; `npm run bench` runs it as its fs-layers section.
//   node bench/layers.bench.mjs [--json out.json]
// Environment: BENCH_ROUNDS (default 3), BENCH_DIR (parent of the scratch directory),
// BENCH_WORKSPACES (default W1,W3,W2).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createFsProvider } from '../dist/index.js';
import { diskUsage, treeTotals } from './disk-usage.mjs';
import { referenceCopy, resticInstalled } from './references.mjs';
import { log, median, run, timedAfterSync } from './timing.mjs';
import { WORKSPACE, changeOneMiBFile, makeWorkspace } from './workspace.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHECKPOINTS_FOR_DISK = 11;
const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;

/** W2: this repository's installed dependencies, as a project's `node_modules`, and ten 1 MiB files to change. */
async function makeNodeProject(root) {
  run('cp', ['-a', join(REPOSITORY, 'node_modules'), join(root, 'node_modules')]);
  run('cp', [join(REPOSITORY, 'package.json'), join(root, 'package.json')]);
  await mkdir(join(root, 'data'));
  const oneMiB = Array.from({ length: WORKSPACE.oneMiBFiles }, (_, at) => `data/one-mib-${at}.bin`);
  for (const path of oneMiB) await writeFile(join(root, path), randomBytes(2 ** 20));
  return { oneMiB, ...(await treeTotals(root)) };
}

const WORKSPACES = {
  W1: { describe: 'W1', make: (root) => makeWorkspace(root) },
  W3: { describe: 'W3 (W1 ×4)', make: (root) => makeWorkspace(root, { shape: { ...WORKSPACE, files: 4 * WORKSPACE.files, bytes: 4 * WORKSPACE.bytes } }) },
  W2: { describe: 'W2 (a Node project with a real node_modules)', make: makeNodeProject },
};
const chosen = (process.env.BENCH_WORKSPACES ?? 'W1,W3,W2').split(',');

const scratch = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'runtimectl-layers-bench-'));
const stores = {};
const sources = [];
try {
  for (const mode of ['copy', 'layers']) {
    stores[mode] = createFsProvider({ root: join(scratch, `${mode}-workspaces`), snapshots: join(scratch, `${mode}-store`), workspaceQuotaBytes: 0, snapshotStore: mode });
    const inForce = await stores[mode].snapshotStoreMode().catch((error) => ({ mode: 'copy', reason: error.message }));
    if (inForce.mode !== mode) {
      log(`layers.bench: the ${mode} store is not available here (${inForce.reason ?? 'copy in force'})`);
      process.exit(2);
    }
  }
  const restic = resticInstalled();
  if (!restic) log('layers.bench: restic is not installed (Debian: apt-get install restic): its figures are left out');
  const report = { machine: { cores: availableParallelism(), node: process.version }, rounds: ROUNDS, restic, workspaces: {} };
  // One source workspace per workspace and store, checkpointed once (its first checkpoint): each round checks it out anew.
  for (const key of chosen) {
    const modes = key === 'W1' ? ['copy', 'layers'] : ['layers'];
    const entry = { describe: WORKSPACES[key].describe, first: {}, samples: { cp: [], git: [], restic: [] }, sources: {} };
    for (const mode of modes) {
      const fs = stores[mode];
      const backend = await fs.create({ backendId: newBackendId(), runtimeId: `source-${key}-${mode}`, options: {}, labels: {} });
      // The host directory: with namespaces, `workspaceRoot` is where commands see it.
      const root = await fs.local.workspaceDirectory(backend.resource);
      entry.shape = await WORKSPACES[key].make(root);
      const attached = await fs.attach({ backendId: backend.backendId, resource: backend.resource });
      const first = await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }));
      entry.first[mode] = first.ms;
      const source = { mode, backendId: backend.backendId, resource: backend.resource, root, snapshotId: first.result.snapshotId, attached };
      entry.sources[mode] = source;
      sources.push(source);
      entry.samples[mode] = { checkout: [], first: [], changed: [] };
    }
    const references = await referenceCopy(entry.sources.layers.root, scratch, key, { restic });
    Object.assign(entry.first, references.first);
    entry.references = references;
    if (key === 'W1') {
      // Disk for 11 checkpoints: the first (above) and ten more, each after a 1 MiB change, against one copy of the tree.
      const { layers } = entry.sources;
      for (let at = 1; at < CHECKPOINTS_FOR_DISK; at++) {
        await changeOneMiBFile(layers.root, entry.shape.oneMiB[at % entry.shape.oneMiB.length]);
        await stores.layers.checkpoint(layers.attached, { labels: {} });
      }
      entry.disk = { checkpoints: CHECKPOINTS_FOR_DISK, storeBytes: await diskUsage(join(scratch, 'layers-store')), copyBytes: references.copyBytes };
    }
    report.workspaces[key] = entry;
    log(`${key}: ${entry.shape.files} files, ${(entry.shape.bytes / 2 ** 20).toFixed(0)} MiB; first checkpoint: ${Object.entries(entry.first).map(([what, ms]) => `${what} ${ms.toFixed(0)} ms`).join(', ')}`);
  }
  let change = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of chosen) {
      const entry = report.workspaces[key];
      if (key === 'W1') {
        const copyTarget = join(scratch, 'cp-a');
        entry.samples.cp.push((await timedAfterSync(() => run('cp', ['-a', entry.sources.layers.root, copyTarget]))).ms);
        await rm(copyTarget, { recursive: true });
      }
      const modes = Object.keys(entry.sources);
      for (const mode of round % 2 ? [...modes].reverse() : modes) {
        const fs = stores[mode];
        const request = { backendId: newBackendId(), runtimeId: `checkout-${key}-${mode}`, options: {}, labels: {}, snapshotId: entry.sources[mode].snapshotId };
        const checkout = await timedAfterSync(() => fs.checkout(request));
        entry.samples[mode].checkout.push(checkout.ms);
        const attached = await fs.attach({ backendId: request.backendId, resource: checkout.result.resource });
        entry.samples[mode].first.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
        await changeOneMiBFile(await fs.local.workspaceDirectory(checkout.result.resource), entry.shape.oneMiB[change++ % entry.shape.oneMiB.length]);
        entry.samples[mode].changed.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
        await fs.release({ backendId: request.backendId, resource: checkout.result.resource });
      }
      await changeOneMiBFile(entry.references.tree, entry.shape.oneMiB[change++ % entry.shape.oneMiB.length]);
      const referenceTimes = await entry.references.change(round + 1);
      entry.samples.git.push(referenceTimes.git);
      if (restic) entry.samples.restic.push(referenceTimes.restic);
      log(`round ${round + 1}/${ROUNDS} ${key}: ` + modes.map((mode) => `${mode} checkout ${entry.samples[mode].checkout.at(-1).toFixed(0)} ms, first checkpoint ${entry.samples[mode].first.at(-1).toFixed(0)} ms, after a 1 MiB change ${entry.samples[mode].changed.at(-1).toFixed(0)} ms`).join('; ') +
        `; git of the change ${referenceTimes.git.toFixed(0)} ms${restic ? `, restic ${referenceTimes.restic.toFixed(0)} ms` : ''}${key === 'W1' ? `; cp -a ${entry.samples.cp.at(-1).toFixed(0)} ms` : ''}`);
    }
  }
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; ${ROUNDS} rounds (medians)\n`);
  console.log('| workspace | measure | layers | references |');
  console.log('| --- | --- | --- | --- |');
  const ms = (values) => `${median(values).toFixed(0)} ms`;
  for (const [key, entry] of Object.entries(report.workspaces)) {
    const { samples, first } = entry;
    console.log(`| ${key} | checkout | ${ms(samples.layers.checkout)} | ${key === 'W1' ? `copy ${ms(samples.copy.checkout)}, cp -a ${ms(samples.cp)}` : ''} |`);
    console.log(`| ${key} | checkpoint after a 1 MiB change | ${ms(samples.layers.changed)} | git ${ms(samples.git)}${restic ? `, restic ${ms(samples.restic)}` : ''}${key === 'W1' ? `, copy ${ms(samples.copy.changed)}` : ''} |`);
    console.log(`| ${key} | first checkpoint of the workspace | ${first.layers.toFixed(0)} ms | git ${first.git.toFixed(0)} ms, tar -cf + sync ${first.durableTar.toFixed(0)} ms${restic ? `, restic ${first.restic.toFixed(0)} ms` : ''}${key === 'W1' ? `, copy ${first.copy.toFixed(0)} ms` : ''} |`);
    if (entry.disk) console.log(`| ${key} | disk for ${entry.disk.checkpoints} checkpoints | ${(entry.disk.storeBytes / 2 ** 20).toFixed(0)} MiB | one copy ${(entry.disk.copyBytes / 2 ** 20).toFixed(0)} MiB |`);
  }
  const json = { ...report, workspaces: Object.fromEntries(Object.entries(report.workspaces).map(([key, { describe, shape, first, samples, disk }]) => [key, { describe, shape, first, samples, disk }])) };
  if (args.json) writeFileSync(args.json, `${JSON.stringify(json, null, 2)}\n`);
} finally {
  // Layered workspaces are mounts: unmount them before the scratch directory goes.
  for (const source of sources) await stores[source.mode].release(source).catch(() => {});
  await rm(scratch, { recursive: true, force: true });
}
