// Daemon overhead on E2B checkpoint/checkout against the emulator's injected 1.52 s / 2.34 s,
// provider snapshot calls for N clean checkpoints, and a 16-way checkout's wall time against one
// checkout (issue 22): the existing
// packages/provider-e2b/bench/e2b-overhead.bench.mjs, run as a child process; it prints JSON.
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { formatValue } from '../format.mjs';

const SCRIPT = repoPath('packages', 'provider-e2b', 'bench', 'e2b-overhead.bench.mjs');

export async function measureE2BOverhead({ profile }) {
  const { rounds, cleanCheckpoints } = profile.e2b;
  const stdout = await runNodeScript(SCRIPT, [], {
    label: 'e2b-overhead.bench',
    cwd: repoPath('packages', 'provider-e2b'),
    env: { ROUNDS: String(rounds), CLEAN_CHECKPOINTS: String(cleanCheckpoints) },
  });
  const report = JSON.parse(stdout);
  const rows = report.results.map((result) => {
    const [min, max] = result.overhead_pct_range;
    const name = result.operation.startsWith('checkpoint') ? 'checkpoint' : 'checkout';
    return {
      ...figureRow({
        id: `e2b.${name}.overhead`,
        measurement: `\`${name}\`${name === 'checkpoint' ? ' of a dirty runtime' : ''} through the E2B provider (emulator replaying ${formatValue(result.injected_ms, 'ms')}): daemon overhead`,
        rounds: [result.daemon_overhead_pct],
        unit: '%',
        detail: `HTTP ${formatValue(result.http_time_total_ms, 'ms')} vs the same SDK calls direct ${formatValue(result.direct_sdk_ms, 'ms')}; overhead ${formatValue(result.daemon_overhead_ms, 'ms')}`,
        reference: { label: 'injected latency', value: result.injected_ms, unit: 'ms' },
        target: { text: 'daemon overhead ≤ 5%', met: ({ value }) => value <= 5 },
      }),
      // The script reports the median and range over its rounds itself.
      value: { median: result.daemon_overhead_pct, min, max, rounds: report.rounds },
    };
  });
  const nway = report.nway_checkout;
  rows.push(
    figureRow({
      id: `e2b.checkout-${nway.count}-way.wall`,
      measurement: `\`checkout\` with \`count: ${nway.count}\` through the E2B provider (emulator replaying ${formatValue(nway.injected_create_ms, 'ms')} per create and per fork call): wall time against one checkout`,
      rounds: nway.nway_rounds_ms,
      unit: 'ms',
      detail: `${nway.count} children in one request, checkout parallelism ${nway.parallelism}${nway.nway_calls ? ` (${nway.nway_calls.create} creates, ${nway.nway_calls.fork} fork calls at E2B)` : ''}; provider time inside the daemon ${formatValue(nway.nway_provider_ms, 'ms')} (the creates' sum)`,
      reference: { label: 'one checkout', rounds: nway.single_rounds_ms, unit: 'ms' },
      ratio: { label: `${nway.count}-way / one`, rounds: nway.ratios, unit: '×' },
      target: { text: `wall time ≤ ${nway.target_ratio}× one checkout`, met: ({ ratio }) => ratio <= nway.target_ratio },
    }),
  );
  const clean = report.clean_checkpoints;
  rows.push(
    figureRow({
      id: 'e2b.clean-checkpoints.snapshot-calls',
      measurement: `provider snapshot calls for ${clean.following_checkpoints + 1} checkpoints of a clean runtime (counted in the emulator)`,
      rounds: [clean.following_snapshot_calls],
      unit: 'calls',
      detail: `${clean.first_checkpoint_snapshot_calls} for the first, ${clean.following_snapshot_calls} for the ${clean.following_checkpoints} after it (median ${formatValue(clean.following_median_http_ms, 'ms')} each)`,
      reference: { label: 'N', value: `${clean.following_checkpoints + 1} checkpoints` },
      target: { text: '0 calls after the first', met: ({ value }) => value === 0 && clean.first_checkpoint_snapshot_calls === 1 },
    }),
  );
  const details = [
    `\`ROUNDS=${rounds} CLEAN_CHECKPOINTS=${cleanCheckpoints} node packages/provider-e2b/bench/e2b-overhead.bench.mjs\`: a real \`runtimed\` with [providers.e2b] on the E2B emulator (snapshot ${formatValue(1520, 'ms')}, create and fork ${formatValue(2340, 'ms')} injected), timed with curl's time_total as the seed did, interleaved with the same calls made directly with the e2b SDK; overhead = HTTP − direct, per round, after one warm-up round.`,
    '',
    '| operation | injected | direct SDK | HTTP through runtimed | provider time inside the daemon | overhead | overhead % (range) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...report.results.map(
      (result) =>
        `| ${result.operation} | ${formatValue(result.injected_ms, 'ms')} | ${formatValue(result.direct_sdk_ms, 'ms')} | ${formatValue(result.http_time_total_ms, 'ms')} | ${formatValue(result.daemon_provider_ms, 'ms')} | ${formatValue(result.daemon_overhead_ms, 'ms')} | ${result.daemon_overhead_pct}% (${result.overhead_pct_range[0]}% to ${result.overhead_pct_range[1]}%) |`,
    ),
    '',
    `${nway.count}-way checkout (\`NWAY_COUNT=${nway.count}\`, the daemon started with \`RUNTIMECTL_RUNTIMES_CHECKOUT_PARALLELISM=${nway.parallelism}\`): the same checkpoint checked out in one request after the single checkout, every round; median ${formatValue(nway.nway_checkout_http_ms, 'ms')} against ${formatValue(nway.single_checkout_http_ms, 'ms')} for one, ${nway.ratio}× (per round: ${nway.ratios.join(', ')}).`,
    ...(nway.direct_create_then_fork_ms !== undefined
      ? [
          '',
          `The two ways E2B can make ${nway.count} sandboxes of one snapshot, timed directly with the SDK (fork given the same ${formatValue(nway.injected_fork_ms, 'ms')} as a create): ${nway.count} parallel creates ${formatValue(nway.direct_parallel_creates_ms, 'ms')}; one create then one \`Sandbox.fork\` with count ${nway.count - 1} ${formatValue(nway.direct_create_then_fork_ms, 'ms')}. Checkout uses the creates (docs/e2b-calls.md says why).`,
        ]
      : []),
    '',
    `Left at the emulator after the run: ${report.leftovers.sandboxes} sandboxes, ${report.leftovers.snapshots} snapshots.`,
  ];
  return { rows, details, raw: report };
}
