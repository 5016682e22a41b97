// Checkpoint of a clean runtime (the reuse path) against the bare fastify route: the existing
// packages/server-http/bench/server.bench.mjs, run as a child process (it starts its own servers
// and autocannon processes, pinned like ours) and read back from its --json output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { median } from '../stats.mjs';

const SCRIPT = repoPath('packages', 'server-http', 'bench', 'server.bench.mjs');

export async function measureHttpClean({ profile, tmpRoot }) {
  const out = join(tmpRoot, 'server-bench.json');
  const { rounds, durationSec, warmupSec } = profile.clean;
  await runNodeScript(SCRIPT, ['--rounds', String(rounds), '--duration', String(durationSec), '--warmup', String(warmupSec), '--diagnose', '--json', out], {
    label: 'server.bench',
    cwd: repoPath('packages', 'server-http'),
  });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const perRound = report.perRound;
  const field = (key, name) => perRound.map((round) => round[key][name]);
  const rows = [1, 50].map((connections) => {
    const key = `checkpoint@${connections}`;
    const bare = `bare@${connections}`;
    const summary = report.summary[key];
    const bareSummary = report.summary[bare];
    return figureRow({
      id: `http.checkpoint.clean.c${connections}.throughput`,
      measurement: `HTTP \`checkpoint\` of a clean runtime (reuse path), ${connections} connection${connections === 1 ? '' : 's'}: req/s`,
      rounds: field(key, 'requestsPerSecond'),
      unit: 'req/s',
      detail: `p50 ${formatValue(summary.p50Ms, 'ms')}, p99 ${formatValue(summary.p99Ms, 'ms')} (bare: ${formatValue(bareSummary.p50Ms, 'ms')}, ${formatValue(bareSummary.p99Ms, 'ms')})`,
      reference: { label: `bare route, ${connections} connection${connections === 1 ? '' : 's'}`, rounds: field(bare, 'requestsPerSecond') },
      ratio: {
        label: 'of the bare route’s req/s',
        rounds: perRound.map((round) => (round[key].requestsPerSecond / round[bare].requestsPerSecond) * 100),
        unit: '%',
      },
      target: { text: '≥ 40% of the bare route’s req/s', met: ({ ratio }) => ratio >= 40 },
    });
  });
  // Issue 4's latency target: at 50 connections, p99 ≤ 2× the bare route's, for the clean
  // checkpoint and for exec (memory provider), each against the bare route of the same round.
  const p99Rows = [
    ['checkpoint', 'HTTP `checkpoint` of a clean runtime (reuse path)'],
    ['exec', 'HTTP `exec` (`echo hi`), memory provider'],
  ].map(([scenario, title]) => {
    const key = `${scenario}@50`;
    return figureRow({
      id: `http.${scenario === 'checkpoint' ? 'checkpoint.clean' : 'exec'}.c50.p99`,
      measurement: `${title}, 50 connections: p99`,
      rounds: field(key, 'p99Ms'),
      unit: 'ms',
      detail: `p50 ${formatValue(report.summary[key].p50Ms, 'ms')}; ${Math.round(report.summary[key].requestsPerSecond)} req/s`,
      reference: { label: 'bare route p99, 50 connections', rounds: field('bare@50', 'p99Ms') },
      ratio: { label: 'p99 vs bare p99', rounds: perRound.map((round) => round[key].p99Ms / round['bare@50'].p99Ms), unit: '×' },
      target: { text: 'p99 ≤ 2× the bare route’s', met: ({ ratio }) => ratio <= 2 },
    });
  });
  rows.push(...p99Rows, ...diagnosticRows(perRound, field));
  const details = [
    `\`node packages/server-http/bench/server.bench.mjs --rounds ${rounds} --duration ${durationSec} --warmup ${warmupSec} --diagnose\`: fresh servers every round (memory store and provider, bearer auth, logs to /dev/null), autocannon in its own process; its own summary (medians over rounds):`,
    '',
    '| scenario | req/s | vs bare | p50 | p99 | p99 vs bare | server CPU per request |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...Object.entries(report.summary).map(
      ([key, figures]) =>
        `| ${key.replace('@', ', c=')} | ${Math.round(figures.requestsPerSecond)} | ${(figures.throughputVsBare * 100).toFixed(0)}% | ${formatValue(figures.p50Ms, 'ms')} | ${formatValue(figures.p99Ms, 'ms')} | ${figures.p99VsBare.toFixed(2)}× | ${formatValue(figures.serverCpuMicrosPerRequest, 'µs')} |`,
    ),
  ];
  return { rows, details, raw: report };
}

/**
 * Reported, not judged (no target): what the clean checkpoint's HTTP layer costs on its own, and
 * the throughput its CPU cost implies. The HTTP layer alone is measured twice (server.bench's
 * --diagnose): the runtime API with a service that answers without doing the operation, and the
 * features issue 4 requires assembled by hand in front of the same canned answer. The CPU row
 * compares server CPU time per request, which unlike req/s holds when the host slows the load
 * generator or the bare route down.
 */
function diagnosticRows(perRound, field) {
  const cpu = (key) => perRound.map((round) => round[key].serverCpuMicrosPerRequest);
  const againstBare = (key, id, measurement) =>
    figureRow({
      id,
      measurement,
      rounds: field(key, 'requestsPerSecond'),
      unit: 'req/s',
      detail: `server CPU ${formatValue(median(cpu(key)), 'µs')} per request (bare route: ${formatValue(median(cpu('bare@50')), 'µs')})`,
      reference: { label: 'bare route, 50 connections', rounds: field('bare@50', 'requestsPerSecond') },
      ratio: {
        label: 'of the bare route’s req/s',
        rounds: perRound.map((round) => (round[key].requestsPerSecond / round['bare@50'].requestsPerSecond) * 100),
        unit: '%',
      },
    });
  return [
    againstBare(
      'checkpoint-free@50',
      'http.checkpoint.free.c50.throughput',
      'HTTP `checkpoint` on a server whose service answers it without doing it (the HTTP layer alone: auth, validation, access log, metrics, serialisation), 50 connections: req/s',
    ),
    againstBare(
      'checkpoint-minimal@50',
      'http.checkpoint.minimal.c50.throughput',
      'The same canned answer from the required features assembled by hand (fastify, request id, bearer check, zod request and response schemas, one pino access line, request counter and histogram; minimal-api-server.mjs), 50 connections: req/s',
    ),
    figureRow({
      id: 'http.checkpoint.clean.c50.cpu',
      measurement: 'HTTP `checkpoint` of a clean runtime, 50 connections: server CPU time per request',
      rounds: cpu('checkpoint@50'),
      unit: 'µs',
      detail: `the HTTP layer alone (above): ${formatValue(median(cpu('checkpoint-free@50')), 'µs')}; assembled by hand: ${formatValue(median(cpu('checkpoint-minimal@50')), 'µs')}`,
      reference: { label: 'bare route, 50 connections', rounds: cpu('bare@50') },
      ratio: {
        label: 'bare route’s CPU per request over the checkpoint’s: the req/s ratio if both were CPU-bound',
        rounds: perRound.map((round) => (round['bare@50'].serverCpuMicrosPerRequest / round['checkpoint@50'].serverCpuMicrosPerRequest) * 100),
        unit: '%',
      },
    }),
  ];
}
