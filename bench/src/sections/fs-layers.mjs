// The fs provider's layers store (issue 34) against cp -a, git, tar and restic, and against its
// copy store, on W1 (10,000 files / 200 MiB), W3 (W1 ×4) and W2 (a Node project with a real
// node_modules): packages/provider-fs/bench/layers.bench.mjs, run as a child process with --json.
// Needs root and overlayfs: elsewhere the script exits 2 and this section reports that it
// failed, with the reason in the log. Restic figures need Debian's `restic` (left out otherwise).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiClient, base64 } from '../api-client.mjs';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript, startRuntimed, stopChild } from '../processes.mjs';
import { removeTree } from '../remove-tree.mjs';
import { median } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'provider-fs', 'bench', 'layers.bench.mjs');
const WORKSPACE_MODULE = repoPath('packages', 'provider-fs', 'bench', 'workspace.mjs');
const TARGETS = { pauseResumeMs: 200, checkoutMs: 100, changedCheckpointMs: 50, scaleRatio: 1.2, diskOverCopy: 1.1, diskSlackMiB: 10 };

const perRound = (values, references) => values.map((value, index) => value / references[index]);
const size = ({ shape }) => `${shape.files.toLocaleString('en')} files / ${(shape.bytes / 2 ** 20).toFixed(0)} MiB`;

/** The first checkpoint of workspace `key` against git (the ratio) and a durable tar, restic beside them. */
function firstCheckpointRow(key, workspace, target) {
  const { first } = workspace;
  return figureRow({
    id: `fs-layers.first-checkpoint${key === 'W1' ? '' : `.${key}`}`,
    measurement: `fs provider, layers: first checkpoint of ${workspace.describe}: ${size(workspace)} written since it was created`,
    rounds: [first.layers],
    unit: 'ms',
    reference: { label: '`git add -A && git commit` of the same tree', rounds: [first.git] },
    ratio: { label: 'of git’s time', rounds: [first.layers / first.git], unit: '×' },
    detail: `tar -cf + sync ${formatValue(first.durableTar, 'ms')} (${(first.layers / first.durableTar).toFixed(2)}×)${first.restic === undefined ? '' : `; restic backup ${formatValue(first.restic, 'ms')}`}${first.copy === undefined ? '' : `; copy store ${formatValue(first.copy, 'ms')}`}`,
    ...(target ? { target: { text: '≤ git and ≤ 2× tar -cf + sync', met: ({ ratio }) => ratio <= 1 && first.layers <= 2 * first.durableTar } } : {}),
  });
}

/**
 * Pause then resume of a runtime holding W1, end to end over HTTP: runtimed with the layers
 * store, W1 written into its workspace (on the host: the bench runs as root, as the layers store
 * needs), one write-file before each pause so every pause takes a snapshot. Per round: the two
 * requests' wall time.
 */
async function measurePauseResume({ rounds, tmpRoot }) {
  const stateDir = mkdtempSync(join(tmpRoot, 'fs-layers-http-'));
  const daemon = await startRuntimed({ args: ['--state-dir', stateDir, '--log-level', 'warn'], env: { RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE: 'layers' } });
  try {
    const api = apiClient(daemon.url);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'w1', conversation_id: 'bench', sender_id: 'bench' });
    const workspaces = join(stateDir, 'fs', 'workspaces');
    const [workspace] = readdirSync(workspaces).filter((name) => name.startsWith('bkd_'));
    const { makeWorkspace } = await import(WORKSPACE_MODULE);
    await makeWorkspace(join(workspaces, workspace));
    await api.post('/api/v1/runtimes/checkpoint', { runtime_id: 'w1' });
    const samples = { pause: [], resume: [], both: [] };
    for (let round = 0; round < rounds; round++) {
      await api.post('/api/v1/runtimes/write-file', { runtime_id: 'w1', path: 'notes.txt', content_base64: base64(`round ${round}`) });
      const startedAt = performance.now();
      await api.post('/api/v1/runtimes/pause', { runtime_id: 'w1' });
      const pausedAt = performance.now();
      await api.post('/api/v1/runtimes/resume', { runtime_id: 'w1' });
      const resumedAt = performance.now();
      samples.pause.push(pausedAt - startedAt);
      samples.resume.push(resumedAt - pausedAt);
      samples.both.push(resumedAt - startedAt);
    }
    return samples;
  } finally {
    await stopChild(daemon.child);
    await removeTree(stateDir);
  }
}

export async function measureFsLayers({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'layers-bench.json');
  const { rounds, workspaces: chosen } = profile.fsLayers;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'layers.bench',
    cwd: repoPath('packages', 'provider-fs'),
    env: { BENCH_ROUNDS: String(rounds), BENCH_DIR: tmpRoot, BENCH_WORKSPACES: chosen },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const { W1, W2, W3 } = report.workspaces;
  const pauseResume = await measurePauseResume({ rounds: Math.max(rounds, 3), tmpRoot });
  const rows = [
    figureRow({
      id: 'fs-layers.pause-resume',
      measurement: 'pause then resume of a runtime holding W1, over HTTP (runtimed, fs provider, layers; a write-file before each pause)',
      rounds: pauseResume.both,
      unit: 'ms',
      detail: `pause ${formatValue(median(pauseResume.pause), 'ms')}, resume ${formatValue(median(pauseResume.resume), 'ms')}`,
      target: { text: `≤ ${TARGETS.pauseResumeMs} ms`, met: ({ value }) => value <= TARGETS.pauseResumeMs },
    }),
    figureRow({
      id: 'fs-layers.checkout',
      measurement: `fs provider, layers: checkout (an overlay mount of the checkpoint's layers), W1: ${size(W1)}`,
      rounds: W1.samples.layers.checkout,
      unit: 'ms',
      reference: { label: '`cp -a` of the workspace', rounds: W1.samples.cp },
      ratio: { label: 'of cp’s time', rounds: perRound(W1.samples.layers.checkout, W1.samples.cp), unit: '×' },
      detail: `copy store ${formatValue(median(W1.samples.copy.checkout), 'ms')}`,
      target: { text: `≤ ${TARGETS.checkoutMs} ms`, met: ({ value }) => value <= TARGETS.checkoutMs },
    }),
    figureRow({
      id: 'fs-layers.changed-checkpoint',
      measurement: 'fs provider, layers: checkpoint after changing one 1 MiB file, W1 (sealed by rename, manifest as a delta)',
      rounds: W1.samples.layers.changed,
      unit: 'ms',
      reference: { label: '`git add -A && git commit` of the same change', rounds: W1.samples.git },
      ratio: { label: 'of git’s time', rounds: perRound(W1.samples.layers.changed, W1.samples.git), unit: '×' },
      detail: `${report.restic ? `restic backup ${formatValue(median(W1.samples.restic), 'ms')}; ` : ''}copy store ${formatValue(median(W1.samples.copy.changed), 'ms')}`,
      target: { text: `≤ ${TARGETS.changedCheckpointMs} ms and ≤ git`, met: ({ value, ratio }) => value <= TARGETS.changedCheckpointMs && ratio <= 1 },
    }),
    firstCheckpointRow('W1', W1, true),
    figureRow({
      id: 'fs-layers.disk',
      measurement: `fs provider, layers: disk for ${W1.disk.checkpoints} checkpoints of W1 (the first, then ${W1.disk.checkpoints - 1} each after a 1 MiB change)`,
      rounds: [W1.disk.storeBytes / 2 ** 20],
      unit: 'MiB',
      reference: { label: 'one copy of the workspace (blocks, as du)', rounds: [W1.disk.copyBytes / 2 ** 20] },
      ratio: { label: 'of one copy', rounds: [W1.disk.storeBytes / W1.disk.copyBytes], unit: '×' },
      target: {
        text: `≤ ${TARGETS.diskOverCopy}× one copy + ${TARGETS.diskSlackMiB} MiB`,
        met: ({ value }) => value <= (TARGETS.diskOverCopy * W1.disk.copyBytes) / 2 ** 20 + TARGETS.diskSlackMiB,
      },
    }),
  ];
  if (W3) {
    rows.push(
      figureRow({
        id: 'fs-layers.checkout.W3',
        measurement: `fs provider, layers: checkout of W3 (${size(W3)}) against W1's`,
        rounds: W3.samples.layers.checkout,
        unit: 'ms',
        reference: { label: 'checkout of W1', rounds: W1.samples.layers.checkout },
        ratio: { label: 'W3 / W1', rounds: perRound(W3.samples.layers.checkout, W1.samples.layers.checkout), unit: '×' },
        target: { text: `W3 / W1 ≤ ${TARGETS.scaleRatio}×`, met: ({ ratio }) => ratio <= TARGETS.scaleRatio },
      }),
      figureRow({
        id: 'fs-layers.changed-checkpoint.W3',
        measurement: "fs provider, layers: checkpoint after changing one 1 MiB file, W3 against W1's",
        rounds: W3.samples.layers.changed,
        unit: 'ms',
        reference: { label: 'the same on W1', rounds: W1.samples.layers.changed },
        ratio: { label: 'W3 / W1', rounds: perRound(W3.samples.layers.changed, W1.samples.layers.changed), unit: '×' },
        detail: `git of the same change on W3 ${formatValue(median(W3.samples.git), 'ms')}`,
        target: { text: `W3 / W1 ≤ ${TARGETS.scaleRatio}×`, met: ({ ratio }) => ratio <= TARGETS.scaleRatio },
      }),
      firstCheckpointRow('W3', W3, false),
    );
  }
  if (W2) rows.push(firstCheckpointRow('W2', W2, true));
  const details = [
    `\`BENCH_ROUNDS=${rounds} BENCH_WORKSPACES=${chosen} node packages/provider-fs/bench/layers.bench.mjs\`: ${Object.entries(report.workspaces).map(([key, workspace]) => `${key} ${workspace.describe === key ? '' : `(${workspace.describe.replace(/^W\d \(|\)$/g, '')}) `}${size(workspace)}`).join(', ')}, each in a layers store (W1 in a copy store too), with runtimed's default isolation (a checkpoint with nothing running seals by rename). The first checkpoint of each is taken once per run, against the same tree committed to git, written as a durable tar${report.restic ? ' and backed up with restic' : ' (restic is not installed here: `apt-get install restic`)'}; each round checks each workspace out, checkpoints it, changes one 1 MiB file and checkpoints again, and commits the same change to git${report.restic ? ' and restic' : ''}, a \`sync\` before each.`,
  ];
  return { rows, details, raw: { ...report, pauseResume } };
}
