// Side-by-side benchmark of the fs provider's snapshots against the tools a user would reach for,
// on a workspace of 10,000 files / 200 MiB (bench/workspace.mjs), every figure in one run:
//   - first checkpoint (empty snapshot store)         vs `tar -cf` of the workspace to a file on the same disk
//   - checkpoint after changing one 1 MiB file         vs that round's first checkpoint
//   - checkout (materialise a new workspace)           vs `cp -a` of the workspace
//   - disk used by the store after a first checkpoint and 10 more, each after changing one
//     1 MiB file                                       vs one copy of the workspace (blocks, as `du`)
// Reported beside them: the first checkpoint against `tar -cf` followed by `sync -f` (a
// checkpoint is durable when it answers; a bare tar is not), and the floors of bench/floors.mjs
// (walk; walk + read + sha256; that + one durable pack) against tar and the first checkpoint.
// Each round runs the timed operations in a rotated order, with a `sync` (untimed) before each
// so no operation pays for the previous one's write-back. Not a test: run it with
// `pnpm --filter @runtimectl/provider-fs bench` after building the package.
//   node bench/fs-provider.bench.mjs [--json out.json]
// Environment: BENCH_ROUNDS (default 3), BENCH_DIR (parent of the scratch directory; default the
// OS temporary directory — put it on the disk you want measured).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFsProvider } from '../dist/index.js';
import { diskUsage } from './disk-usage.mjs';
import { contentFloor, durablePackFloor, walkFloor } from './floors.mjs';
import { log, median, run, timedAfterSync } from './timing.mjs';
import { changeOneMiBFile, makeWorkspace } from './workspace.mjs';

const { values: args } = parseArgs({ options: { json: { type: 'string' } } });
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHECKPOINTS_FOR_DISK = 10;
const TARGETS = { firstCheckpointVsTar: 1.5, changedCheckpointVsFirst: 0.05, checkoutVsCp: 1.5, diskFactor: 1.1, diskExtraBytes: 10 * 2 ** 20 };

const scratch = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'runtimectl-fs-bench-'));
try {
  const root = join(scratch, 'workspaces');
  const provider = (snapshots) => createFsProvider({ root, snapshots: join(scratch, snapshots), isolation: 'none', workspaceQuotaBytes: 0 });
  const setup = provider('setup-store');
  const backendId = `bkd_${randomBytes(16).toString('hex')}`;
  const backend = await setup.create({ backendId, runtimeId: 'bench', options: {}, labels: {} });
  const workspace = backend.workspaceRoot;
  const made = await makeWorkspace(workspace);
  const workspaceBytesOnDisk = await diskUsage(workspace);
  log(`workspace: ${made.files} files in ${made.directories} directories, ${(made.bytes / 2 ** 20).toFixed(0)} MiB (${(workspaceBytesOnDisk / 2 ** 20).toFixed(1)} MiB on disk)`);
  // Past the stat index's racily-clean window: files written just now would be rehashed anyway.
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const samples = { tar: [], tarSynced: [], firstCheckpoint: [], changedCheckpoint: [], cp: [], checkout: [], walkFloor: [], contentFloor: [], durablePackFloor: [] };
  let change = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const fs = provider(`store-${round}`);
    const attached = await fs.attach({ backendId, resource: backend.resource });
    let snapshotId;
    const steps = {
      tar: async () => {
        const archive = join(scratch, 'workspace.tar');
        run('sync', []);
        const startedAt = performance.now();
        run('tar', ['-cf', archive, '-C', workspace, '.']);
        samples.tar.push(performance.now() - startedAt);
        run('sync', ['-f', archive]);
        samples.tarSynced.push(performance.now() - startedAt);
        await rm(archive);
      },
      checkpoints: async () => {
        let first;
        samples.firstCheckpoint.push((await timedAfterSync(async () => (first = await fs.checkpoint(attached, { labels: {} })))).ms);
        snapshotId = first.snapshotId;
        await changeOneMiBFile(workspace, made.oneMiB[change++ % made.oneMiB.length]);
        samples.changedCheckpoint.push((await timedAfterSync(() => fs.checkpoint(attached, { labels: {} }))).ms);
      },
      floors: async () => {
        samples.walkFloor.push((await timedAfterSync(() => walkFloor(workspace))).ms);
        samples.contentFloor.push((await timedAfterSync(() => contentFloor(workspace))).ms);
        samples.durablePackFloor.push((await timedAfterSync(() => durablePackFloor(workspace, join(scratch, 'floor.pack')))).ms);
      },
      cp: async () => {
        const copy = join(scratch, 'copy');
        samples.cp.push((await timedAfterSync(() => run('cp', ['-a', workspace, copy]))).ms);
        await rm(copy, { recursive: true });
      },
      checkout: async () => {
        const request = { backendId: `bkd_${randomBytes(16).toString('hex')}`, runtimeId: 'checkout', options: {}, labels: {}, snapshotId };
        let checkedOut;
        samples.checkout.push((await timedAfterSync(async () => (checkedOut = await fs.checkout(request)))).ms);
        await fs.release({ backendId: request.backendId, resource: checkedOut.resource });
      },
    };
    // The checkout needs this round's snapshot: it always follows the checkpoints.
    const orders = [['tar', 'checkpoints', 'floors', 'cp', 'checkout'], ['checkpoints', 'checkout', 'floors', 'tar', 'cp'], ['floors', 'cp', 'checkpoints', 'checkout', 'tar']];
    for (const step of orders[round % orders.length]) await steps[step]();
    log(`round ${round + 1}/${ROUNDS}: tar ${samples.tar.at(-1).toFixed(0)} ms, floors ${samples.walkFloor.at(-1).toFixed(0)}/${samples.contentFloor.at(-1).toFixed(0)}/${samples.durablePackFloor.at(-1).toFixed(0)} ms, first checkpoint ${samples.firstCheckpoint.at(-1).toFixed(0)} ms, after a 1 MiB change ${samples.changedCheckpoint.at(-1).toFixed(0)} ms, cp -a ${samples.cp.at(-1).toFixed(0)} ms, checkout ${samples.checkout.at(-1).toFixed(0)} ms`);
    await rm(join(scratch, `store-${round}`), { recursive: true });
  }

  // Disk: one store, a first checkpoint, then 10 more each after changing one 1 MiB file.
  const diskStore = provider('disk-store');
  const attached = await diskStore.attach({ backendId, resource: backend.resource });
  await diskStore.checkpoint(attached, { labels: {} });
  for (let i = 0; i < CHECKPOINTS_FOR_DISK; i++) {
    await changeOneMiBFile(workspace, made.oneMiB[change++ % made.oneMiB.length]);
    await diskStore.checkpoint(attached, { labels: {} });
  }
  const storeBytes = await diskUsage(join(scratch, 'disk-store'));
  const blobBytes = await diskUsage(join(scratch, 'disk-store', 'blobs'));
  const manifestBytes = await diskUsage(join(scratch, 'disk-store', 'manifests'));
  const workspaceNow = await diskUsage(workspace);
  const diskLimit = TARGETS.diskFactor * workspaceNow + TARGETS.diskExtraBytes;

  const ratios = {
    firstCheckpointVsTar: samples.firstCheckpoint.map((ms, i) => ms / samples.tar[i]),
    firstCheckpointVsTarSynced: samples.firstCheckpoint.map((ms, i) => ms / samples.tarSynced[i]),
    changedCheckpointVsFirst: samples.changedCheckpoint.map((ms, i) => ms / samples.firstCheckpoint[i]),
    checkoutVsCp: samples.checkout.map((ms, i) => ms / samples.cp[i]),
    contentFloorVsTar: samples.contentFloor.map((ms, i) => ms / samples.tar[i]),
    durablePackFloorVsTarSynced: samples.durablePackFloor.map((ms, i) => ms / samples.tarSynced[i]),
    // The walk against the changed checkpoint's budget were the first checkpoint at its target.
    walkFloorVsChangedBudget: samples.walkFloor.map((ms, i) => ms / (TARGETS.changedCheckpointVsFirst * TARGETS.firstCheckpointVsTar * samples.tar[i])),
  };
  const rows = [
    { measure: 'first checkpoint', fs: `${median(samples.firstCheckpoint).toFixed(0)} ms`, reference: `tar -cf ${median(samples.tar).toFixed(0)} ms`, ratio: median(ratios.firstCheckpointVsTar), target: `≤ ${TARGETS.firstCheckpointVsTar}×`, met: median(ratios.firstCheckpointVsTar) <= TARGETS.firstCheckpointVsTar },
    { measure: 'first checkpoint (durable) against a durable tar', fs: `${median(samples.firstCheckpoint).toFixed(0)} ms`, reference: `tar -cf then sync -f ${median(samples.tarSynced).toFixed(0)} ms`, ratio: median(ratios.firstCheckpointVsTarSynced), target: 'reported', met: true },
    { measure: 'checkpoint after changing one 1 MiB file', fs: `${median(samples.changedCheckpoint).toFixed(0)} ms`, reference: `first checkpoint ${median(samples.firstCheckpoint).toFixed(0)} ms`, ratio: median(ratios.changedCheckpointVsFirst), target: `≤ ${TARGETS.changedCheckpointVsFirst}×`, met: median(ratios.changedCheckpointVsFirst) <= TARGETS.changedCheckpointVsFirst },
    { measure: 'floor: walk + read + sha256 (no write)', fs: `${median(samples.contentFloor).toFixed(0)} ms`, reference: `tar -cf ${median(samples.tar).toFixed(0)} ms`, ratio: median(ratios.contentFloorVsTar), target: 'reported', met: true },
    { measure: 'floor: that + one durable pack', fs: `${median(samples.durablePackFloor).toFixed(0)} ms`, reference: `tar -cf then sync -f ${median(samples.tarSynced).toFixed(0)} ms`, ratio: median(ratios.durablePackFloorVsTarSynced), target: 'reported', met: true },
    { measure: 'floor: walk (lstat every entry)', fs: `${median(samples.walkFloor).toFixed(0)} ms`, reference: `5% of 1.5× tar ${(TARGETS.changedCheckpointVsFirst * TARGETS.firstCheckpointVsTar * median(samples.tar)).toFixed(0)} ms`, ratio: median(ratios.walkFloorVsChangedBudget), target: 'reported', met: true },
    { measure: 'checkout', fs: `${median(samples.checkout).toFixed(0)} ms`, reference: `cp -a ${median(samples.cp).toFixed(0)} ms`, ratio: median(ratios.checkoutVsCp), target: `≤ ${TARGETS.checkoutVsCp}×`, met: median(ratios.checkoutVsCp) <= TARGETS.checkoutVsCp },
    { measure: `disk of ${CHECKPOINTS_FOR_DISK + 1} checkpoints (${CHECKPOINTS_FOR_DISK} after a 1 MiB change)`, fs: `${(storeBytes / 2 ** 20).toFixed(1)} MiB`, reference: `workspace ${(workspaceNow / 2 ** 20).toFixed(1)} MiB`, ratio: storeBytes / workspaceNow, target: `≤ ${TARGETS.diskFactor}× + 10 MiB (${(diskLimit / 2 ** 20).toFixed(1)} MiB)`, met: storeBytes <= diskLimit },
  ];
  console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}`);
  console.log(`workspace: ${made.files} files, ${(made.bytes / 2 ** 20).toFixed(0)} MiB; ${ROUNDS} rounds (medians of per-round ratios)\n`);
  console.log('| measure | fs provider | reference | ratio | target | verdict |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.measure} | ${row.fs} | ${row.reference} | ${row.ratio.toFixed(3)}× | ${row.target} | ${row.met ? 'met' : 'MISSED'} |`);
  if (args.json) {
    const report = {
      machine: { cores: availableParallelism(), cpu: cpus()[0]?.model, node: process.version, platform: process.platform },
      rounds: ROUNDS,
      workspace: { files: made.files, directories: made.directories, bytes: made.bytes, bytesOnDisk: workspaceBytesOnDisk },
      // Milliseconds per round, in round order (ratios are taken within a round).
      samplesMs: samples,
      ratios,
      disk: { checkpoints: CHECKPOINTS_FOR_DISK + 1, storeBytes, blobBytes, manifestBytes, workspaceBytes: workspaceNow, limitBytes: diskLimit },
      targets: TARGETS,
    };
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
