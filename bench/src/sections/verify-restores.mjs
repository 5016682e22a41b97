// Verified restores (issue 22): apps/daemon/bench/verify-restores.bench.mjs, run as a child
// process with --json. Checkout and resume with verification on against off, per provider.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('apps', 'daemon', 'bench', 'verify-restores.bench.mjs');
/** The rule: verification is on by default where it costs at most 10% of the restore. */
const DEFAULT_ON_RATIO = 1.1;

export async function measureVerifyRestores({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'verify-restores-bench.json');
  const { rounds, files, mib } = profile.verifyRestores;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'verify-restores.bench',
    cwd: repoPath('apps', 'daemon'),
    env: { BENCH_ROUNDS: String(rounds), BENCH_FILES: String(files), BENCH_MIB: String(mib), BENCH_DIR: tmpRoot },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const rows = [];
  for (const [provider, result] of Object.entries(report.providers)) {
    for (const operation of ['checkout', 'resume']) {
      rows.push(
        figureRow({
          id: `verify-restores.${provider}.${operation}`,
          measurement: `${provider}: ${operation} with verification (${report.workspace.files} files / ${Math.round(report.workspace.bytes / 2 ** 20)} MiB)`,
          rounds: result[`${operation}On`],
          unit: 'ms',
          reference: { label: `${operation} without it`, rounds: result[`${operation}Off`] },
          ratio: { label: 'of the unverified restore', rounds: result[`${operation}On`].map((value, index) => value / result[`${operation}Off`][index]), unit: '×' },
          target: { text: `≤ ${DEFAULT_ON_RATIO}× to be on by default`, met: ({ ratio }) => ratio <= DEFAULT_ON_RATIO },
        }),
      );
    }
    rows.push(
      figureRow({
        id: `verify-restores.${provider}.manifest-at-checkpoint`,
        measurement: `${provider}: checkpoint with its content manifest, one file changed (${report.workspace.files} files / ${Math.round(report.workspace.bytes / 2 ** 20)} MiB)`,
        rounds: result.checkpointWithManifest,
        unit: 'ms',
        reference: { label: 'the same checkpoint on a provider without manifests', rounds: result.checkpointWithout },
        ratio: { label: 'of the checkpoint without it', rounds: result.checkpointWithManifest.map((value, index) => value / result.checkpointWithout[index]), unit: '×' },
      }),
    );
  }
  const details = [
    `\`BENCH_ROUNDS=${rounds} BENCH_FILES=${files} BENCH_MIB=${mib} node apps/daemon/bench/verify-restores.bench.mjs\`: per provider one RuntimeService (memory store) and the fs benchmark's workspace mix scaled to ${files} files / ${mib} MiB, written through write-file; per round (after a warm-up round, order flipped every round) a checkout of a checkpoint taken with verify off and of one with verify on (same snapshot), each child closed, and a resume of a runtime paused with verify off, then on. E2B runs against the in-process emulator with its create latency set to the seed's 2340 ms. The manifest rows: per round one file changed and a checkpoint, on that service and on one whose provider hides \`manifest()\` (so it records none), alternating which goes first. A provider whose verification costs at most 10% of its restore verifies by default (\`restore_verification: "default"\`); the others are opt-in.`,
  ];
  return { rows, details, raw: report };
}
