// The local provider against the Node primitives it wraps (64 MiB write/read vs fs.promises,
// exec "true" vs a bare spawn): packages/provider-local/bench/local-provider.bench.mjs, run as a
// child process with --json. Its rounds interleave provider and raw, so ratios are per round.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';

const SCRIPT = repoPath('packages', 'provider-local', 'bench', 'local-provider.bench.mjs');

export async function measureLocalProvider({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'local-bench.json');
  const { fileRounds, execRounds } = profile.local;
  await runNodeScript(SCRIPT, ['--json', out], {
    label: 'local-provider.bench',
    cwd: repoPath('packages', 'provider-local'),
    env: { BENCH_FILE_ROUNDS: String(fileRounds), BENCH_EXEC_ROUNDS: String(execRounds) },
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const mib = report.fileBytes / 2 ** 20;
  const throughput = (samples) => samples.map((ms) => mib / (ms / 1000));
  const perRound = (measure, fn) =>
    measure.samplesMs.a.map((a, index) => fn(a, measure.samplesMs.b[index], measure.samplesMs.c?.[index], measure.samplesMs.d?.[index], measure.samplesMs.e?.[index]));
  const rows = ['write', 'read'].map((operation) =>
    figureRow({
      id: `local.${operation}`,
      measurement: `local provider: ${operation} ${mib} MiB`,
      rounds: throughput(report[operation].samplesMs.a),
      unit: 'MiB/s',
      reference: { label: `fs.promises.${operation === 'write' ? 'writeFile' : 'readFile'}`, rounds: throughput(report[operation].samplesMs.b) },
      // Throughput ratio = raw time / provider time, per interleaved round.
      ratio: { label: 'of raw throughput', rounds: perRound(report[operation], (a, b) => b / a), unit: '×' },
      target: { text: '≥ 0.8× raw throughput', met: ({ ratio }) => ratio >= 0.8 },
    }),
  );
  // The provider's own overhead on an exec: against a bare spawn of the very launch it makes
  // (into the workspace's namespace sandbox when isolation is in force, under prlimit for the
  // quota). What isolation and the quota cost is its own row, against a bare `sh -c true`.
  const isolation = report.isolation?.mode ?? 'none';
  rows.push(
    figureRow({
      id: 'local.exec-true',
      measurement: `local provider: \`exec true\` round trip (isolation: ${isolation})`,
      rounds: report.exec.samplesMs.a,
      unit: 'ms',
      reference: { label: 'the same launch spawned bare (nsenter into a sandbox, prlimit, `sh -c true`)', rounds: report.exec.samplesMs.c },
      ratio: { label: 'of the bare launch’s time', rounds: perRound(report.exec, (a, _b, c) => a / c), unit: '×' },
      target: { text: '≤ 1.5× the bare launch', met: ({ ratio }) => ratio <= 1.5 },
    }),
    // Issue 31: what isolation v2 costs at launch — the launch the provider makes now (into the
    // sandbox's cgroup, seven namespaces, as the sandbox identity) against the launch it made
    // before (three namespaces, host network, the daemon's ids), both spawned bare, alternating.
    figureRow({
      id: 'local.exec-launch-v2',
      measurement: 'isolation v2 at launch: bare `sh` into the cgroup + `nsenter` of 7 namespaces + `prlimit` + `sh -c true`',
      rounds: report.exec.samplesMs.c,
      unit: 'ms',
      reference: { label: 'the launch before isolation v2, bare (`nsenter` of user, mount, PID namespaces; host network; daemon ids)', rounds: report.exec.samplesMs.d },
      ratio: { label: 'of the launch before v2', rounds: perRound(report.exec, (_a, _b, c, d) => c / d), unit: '×' },
      target: { text: '≤ 1.5× the isolated launch before v2', met: ({ ratio }) => ratio <= 1.5 },
    }),
    figureRow({
      id: 'local.exec-v2-provider',
      measurement: 'local provider `exec true` with isolation v2 (egress, sandbox identity, limits watched)',
      rounds: report.exec.samplesMs.a,
      unit: 'ms',
      reference: { label: 'the same provider set up as before v2 (network host, daemon ids, no limits)', rounds: report.exec.samplesMs.e },
      ratio: { label: 'of the provider as before v2', rounds: perRound(report.exec, (a, _b, _c, _d, e) => a / e), unit: '×' },
    }),
    figureRow({
      id: 'local.exec-launch-cost',
      measurement: 'isolation and quota at launch: bare `nsenter` into a sandbox + `prlimit` + `sh -c true`',
      rounds: report.exec.samplesMs.c,
      unit: 'ms',
      reference: { label: 'bare `spawn(/bin/sh -c true)`', rounds: report.exec.samplesMs.b },
      ratio: { label: 'of the bare `sh`’s time', rounds: perRound(report.exec, (_a, b, c) => c / b), unit: '×' },
    }),
  );
  const details = [
    `\`BENCH_FILE_ROUNDS=${fileRounds} BENCH_EXEC_ROUNDS=${execRounds} node packages/provider-local/bench/local-provider.bench.mjs\`: provider and raw Node alternate (order flipped every round) after ${report.rounds.warmup} warm-up rounds; medians of ${formatValue(report.write.a, 'ms')} (provider) vs ${formatValue(report.write.b, 'ms')} (raw) per write, ${formatValue(report.read.a, 'ms')} vs ${formatValue(report.read.b, 'ms')} per read, ${formatValue(report.exec.a, 'ms')} (provider) vs ${formatValue(report.exec.c, 'ms')} (its launch, bare) vs ${formatValue(report.exec.b, 'ms')} (\`sh -c true\`) per exec; isolation in force: ${isolation}.`,
    `Isolation v2 (issue 31), alternating in the same rounds: the bare launch now ${formatValue(report.exec.c, 'ms')} against ${formatValue(report.exec.d, 'ms')} before v2; the provider's exec ${formatValue(report.exec.a, 'ms')} against ${formatValue(report.exec.e, 'ms')} for the provider set up as before (the bare launches' sandboxes: now ${JSON.stringify(report.launches?.v2 ?? {})}, before ${JSON.stringify(report.launches?.before ?? {})}).`,
  ];
  return { rows, details, raw: report };
}
