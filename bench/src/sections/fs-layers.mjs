// The fs provider's layers store (issue 34) against cp -a, git and tar, and against its copy
// store, on the 10,000-file / 200 MiB workspace: packages/provider-fs/bench/layers.bench.mjs, run
// as a child process with --json. Needs root and overlayfs: elsewhere the script exits 2 and this
// section reports that it failed, with the reason in the log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { median } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'provider-fs', 'bench', 'layers.bench.mjs');
const TARGETS = { checkoutMs: 100, changedCheckpointMs: 50 };

const perRound = (values, references) => values.map((value, index) => value / references[index]);

export async function measureFsLayers({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'layers-bench.json');
  const { rounds } = profile.fsLayers;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'layers.bench',
    cwd: repoPath('packages', 'provider-fs'),
    env: { BENCH_ROUNDS: String(rounds), BENCH_DIR: tmpRoot },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const { samplesMs: samples, firstOfWorkspaceMs: first, workspace } = report;
  const size = `${workspace.files.toLocaleString('en')} files / ${(workspace.bytes / 2 ** 20).toFixed(0)} MiB`;
  const rows = [
    figureRow({
      id: 'fs-layers.checkout',
      measurement: `fs provider, layers: checkout (an overlay mount of the checkpoint's layers), ${size}`,
      rounds: samples.layers.checkout,
      unit: 'ms',
      reference: { label: '`cp -a` of the workspace', rounds: samples.cp },
      ratio: { label: 'of cp’s time', rounds: perRound(samples.layers.checkout, samples.cp), unit: '×' },
      target: { text: `≤ ${TARGETS.checkoutMs} ms`, met: ({ value }) => value <= TARGETS.checkoutMs },
    }),
    figureRow({
      id: 'fs-layers.changed-checkpoint',
      measurement: 'fs provider, layers: checkpoint after changing one 1 MiB file (sealed by rename, manifest as a delta)',
      rounds: samples.layers.changed,
      unit: 'ms',
      reference: { label: '`git add -A && git commit` of the same change', rounds: samples.gitChanged },
      ratio: { label: 'of git’s time', rounds: perRound(samples.layers.changed, samples.gitChanged), unit: '×' },
      target: { text: `≤ ${TARGETS.changedCheckpointMs} ms and ≤ git`, met: ({ value, ratio }) => value <= TARGETS.changedCheckpointMs && ratio <= 1 },
    }),
    figureRow({
      id: 'fs-layers.changed-checkpoint-vs-copy',
      measurement: 'the same checkpoint against the copy store',
      rounds: samples.layers.changed,
      unit: 'ms',
      reference: { label: 'copy store, the same change', rounds: samples.copy.changed },
      ratio: { label: 'of the copy store’s time', rounds: perRound(samples.layers.changed, samples.copy.changed), unit: '×' },
    }),
    figureRow({
      id: 'fs-layers.first-checkpoint',
      measurement: `fs provider, layers: first checkpoint of the workspace (${size} written since it was created)`,
      rounds: [first.layers],
      unit: 'ms',
      reference: { label: '`git add -A && git commit` of the same tree', rounds: [first.git] },
      ratio: { label: 'of git’s time', rounds: [first.layers / first.git], unit: '×' },
      detail: `tar -cf + sync ${formatValue(first.durableTar, 'ms')} (${(first.layers / first.durableTar).toFixed(2)}×); copy store ${formatValue(first.copy, 'ms')}`,
      target: { text: '≤ git and ≤ 2× tar -cf + sync', met: ({ ratio }) => ratio <= 1 && first.layers <= 2 * first.durableTar },
    }),
  ];
  const details = [
    `\`BENCH_ROUNDS=${rounds} node packages/provider-fs/bench/layers.bench.mjs\`: the fs bench's workspace (${size}) in a layers store and a copy store, with runtimed's default isolation (a checkpoint with nothing running seals by rename). The first checkpoint is taken once per run; each round checks the workspace out of both stores, checkpoints it, changes one 1 MiB file and checkpoints again, and commits the same change in a git repository of the same tree, a \`sync\` before each. Medians: checkout ${formatValue(median(samples.layers.checkout), 'ms')} (copy store ${formatValue(median(samples.copy.checkout), 'ms')}, \`cp -a\` ${formatValue(median(samples.cp), 'ms')}); checkpoint after a 1 MiB change ${formatValue(median(samples.layers.changed), 'ms')} (copy store ${formatValue(median(samples.copy.changed), 'ms')}, git ${formatValue(median(samples.gitChanged), 'ms')}).`,
  ];
  return { rows, details, raw: report };
}
