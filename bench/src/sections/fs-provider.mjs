// The fs provider's snapshots against tar and cp on a workspace of 10,000 files / 200 MiB:
// packages/provider-fs/bench/fs-provider.bench.mjs, run as a child process with --json. Every
// round measures tar, the checkpoints, cp -a and the checkout in a rotated order, so the ratios
// are per round.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { median } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'provider-fs', 'bench', 'fs-provider.bench.mjs');

export async function measureFsProvider({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'fs-bench.json');
  const { rounds } = profile.fs;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'fs-provider.bench',
    cwd: repoPath('packages', 'provider-fs'),
    env: { BENCH_ROUNDS: String(rounds), BENCH_DIR: tmpRoot },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const { samplesMs: samples, ratios, targets, disk, workspace } = report;
  const mib = (bytes) => bytes / 2 ** 20;
  const rows = [
    figureRow({
      id: 'fs.first-checkpoint',
      measurement: `fs provider: first checkpoint of ${workspace.files.toLocaleString('en')} files / ${mib(workspace.bytes).toFixed(0)} MiB`,
      rounds: samples.firstCheckpoint,
      unit: 'ms',
      reference: { label: '`tar -cf` of the workspace to a file on the same disk', rounds: samples.tar },
      ratio: { label: 'of tar’s time', rounds: ratios.firstCheckpointVsTar, unit: '×' },
      target: { text: `≤ ${targets.firstCheckpointVsTar}× tar`, met: ({ ratio }) => ratio <= targets.firstCheckpointVsTar },
    }),
    figureRow({
      id: 'fs.first-checkpoint-durable-tar',
      measurement: 'fs provider: first checkpoint (durable when it answers) against a durable tar',
      rounds: samples.firstCheckpoint,
      unit: 'ms',
      reference: { label: '`tar -cf` then `sync -f` of the archive', rounds: samples.tarSynced },
      ratio: { label: 'of the durable tar’s time', rounds: ratios.firstCheckpointVsTarSynced, unit: '×' },
    }),
    figureRow({
      id: 'fs.changed-checkpoint',
      measurement: 'fs provider: checkpoint after changing one 1 MiB file',
      rounds: samples.changedCheckpoint,
      unit: 'ms',
      reference: { label: 'the first checkpoint of the same round', rounds: samples.firstCheckpoint },
      ratio: { label: 'of the first checkpoint’s time', rounds: ratios.changedCheckpointVsFirst, unit: '×' },
      target: { text: `≤ ${targets.changedCheckpointVsFirst * 100}% of the first checkpoint`, met: ({ ratio }) => ratio <= targets.changedCheckpointVsFirst },
    }),
    figureRow({
      id: 'fs.floor-content',
      measurement: 'floor of any content-addressed first checkpoint: walk, read and sha256 every file (nothing written)',
      rounds: samples.contentFloor,
      unit: 'ms',
      reference: { label: '`tar -cf` of the workspace', rounds: samples.tar },
      ratio: { label: 'of tar’s time', rounds: ratios.contentFloorVsTar, unit: '×' },
    }),
    figureRow({
      id: 'fs.floor-durable-pack',
      measurement: 'floor of a durable first checkpoint: that, every file appended to one pack, one fsync',
      rounds: samples.durablePackFloor,
      unit: 'ms',
      reference: { label: '`tar -cf` then `sync -f` of the archive', rounds: samples.tarSynced },
      ratio: { label: 'of the durable tar’s time', rounds: ratios.durablePackFloorVsTarSynced, unit: '×' },
    }),
    figureRow({
      id: 'fs.floor-walk',
      measurement: 'floor of a checkpoint that finds changes by stat: list and lstat every entry',
      rounds: samples.walkFloor,
      unit: 'ms',
      reference: { label: 'the changed checkpoint’s budget were the first at its target (5% of 1.5× tar)', rounds: samples.tar.map((ms) => targets.changedCheckpointVsFirst * targets.firstCheckpointVsTar * ms) },
      ratio: { label: 'of that budget', rounds: ratios.walkFloorVsChangedBudget, unit: '×' },
    }),
    figureRow({
      id: 'fs.checkout',
      measurement: 'fs provider: checkout (a new workspace from the snapshot)',
      rounds: samples.checkout,
      unit: 'ms',
      reference: { label: '`cp -a` of the workspace', rounds: samples.cp },
      ratio: { label: 'of cp’s time', rounds: ratios.checkoutVsCp, unit: '×' },
      target: { text: `≤ ${targets.checkoutVsCp}× cp -a`, met: ({ ratio }) => ratio <= targets.checkoutVsCp },
    }),
    figureRow({
      id: 'fs.disk',
      measurement: `fs provider: disk used by ${disk.checkpoints} checkpoints (${disk.checkpoints - 1} after changing one 1 MiB file)`,
      rounds: [disk.storeBytes],
      unit: 'B',
      reference: { label: 'one copy of the workspace (blocks, as du)', value: disk.workspaceBytes },
      ratio: { label: 'of one copy', rounds: [disk.storeBytes / disk.workspaceBytes], unit: '×' },
      target: { text: `≤ ${targets.diskFactor}× one copy + 10 MiB (${mib(disk.limitBytes).toFixed(1)} MiB)`, met: ({ value }) => value <= disk.limitBytes },
    }),
  ];
  const details = [
    `\`BENCH_ROUNDS=${rounds} node packages/provider-fs/bench/fs-provider.bench.mjs\`: a workspace of ${workspace.files.toLocaleString('en')} files in ${workspace.directories} directories, ${mib(workspace.bytes).toFixed(0)} MiB (${mib(workspace.bytesOnDisk).toFixed(1)} MiB on disk): many small files (40% text, the rest random bytes), ten 1 MiB files, multi-MiB files (some text logs). Each round: a fresh snapshot store, tar, first checkpoint, a 1 MiB change and its checkpoint, \`cp -a\`, checkout, in a rotated order, a \`sync\` before each. Medians: tar ${formatValue(median(samples.tar), 'ms')} (${formatValue(median(samples.tarSynced), 'ms')} with its \`sync -f\`), first checkpoint ${formatValue(median(samples.firstCheckpoint), 'ms')}, \`cp -a\` ${formatValue(median(samples.cp), 'ms')}, checkout ${formatValue(median(samples.checkout), 'ms')}.`,
    `Disk: blobs ${mib(disk.blobBytes).toFixed(1)} MiB, manifests ${mib(disk.manifestBytes).toFixed(1)} MiB of ${mib(disk.storeBytes).toFixed(1)} MiB in the store.`,
  ];
  return { rows, details, raw: report };
}

