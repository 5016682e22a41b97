// Content manifests and diff (issue 22): packages/provider-fs/bench/manifest.bench.mjs, run as
// a child process with --json. The manifest's cost is taken per round against that round's
// checkpoint (after changing one 1 MiB file of the 10,000-file / 200 MiB workspace).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'provider-fs', 'bench', 'manifest.bench.mjs');

export async function measureManifests({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'manifest-bench.json');
  const { rounds, diffs } = profile.manifests;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'manifest.bench',
    cwd: repoPath('packages', 'provider-fs'),
    env: { BENCH_ROUNDS: String(rounds), BENCH_DIFFS: String(diffs), BENCH_DIR: tmpRoot },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const rows = [
    figureRow({
      id: 'manifests.diff-one-file',
      measurement: 'diff of two checkpoints differing in one file, 10,000 files (RuntimeService.diff, memory store)',
      rounds: [report.diffMs.median],
      unit: 'ms',
      detail: `p99 ${formatValue(report.diffMs.p99, 'ms')} over ${report.diffMs.samples} diffs`,
      target: { text: '≤ 10 ms', met: ({ value }) => value <= 10 },
    }),
    figureRow({
      id: 'manifests.fs-manifest-at-checkpoint',
      measurement: 'fs provider: manifest at checkpoint (carried by the snapshot from its own walk; Merkle trees built), one 1 MiB file changed, 10,000 files / 200 MiB',
      rounds: report.manifestMs,
      unit: 'ms',
      reference: { label: 'the fs checkpoint', rounds: report.checkpointMs },
      ratio: { label: 'of the checkpoint’s time', rounds: report.manifestShare, unit: '×' },
    }),
    figureRow({
      id: 'manifests.fs-second-walk',
      measurement: 'the same manifest by a second walk (backend.manifest() from the stat index, as before snapshots carried it)',
      rounds: report.secondWalkMs,
      unit: 'ms',
      reference: { label: 'the fs checkpoint', rounds: report.checkpointMs },
      ratio: { label: 'of the checkpoint’s time', rounds: report.secondWalkShare, unit: '×' },
    }),
    figureRow({
      id: 'manifests.rehash-all',
      measurement: 'the same manifest with every file hashed (no stat index: the local provider’s cost)',
      rounds: report.rehashAllMs,
      unit: 'ms',
      reference: { label: 'the fs checkpoint', rounds: report.checkpointMs },
    }),
  ];
  const details = [
    `\`BENCH_ROUNDS=${rounds} BENCH_DIFFS=${diffs} node packages/provider-fs/bench/manifest.bench.mjs\`: per round a fresh snapshot store, a first checkpoint, 1.5 s (the stat index's racy window), one 1 MiB file changed, then the checkpoint, the Merkle trees of the manifest its snapshot carries (what core records), a second walk's manifest (what core took before) and a manifest hashing every file, timed one after another. The diff runs ${diffs} times (after 20 warm-up diffs) on two checkpoints of a 10,000-file memory workspace (100 directories of 100 files) differing in one file.`,
  ];
  return { rows, details, raw: report };
}
