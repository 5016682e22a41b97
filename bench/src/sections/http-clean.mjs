// Checkpoint of a clean runtime (the reuse path) and exec: the existing
// packages/server-http/bench/server.bench.mjs, run as a child process (it starts its own servers
// and autocannon processes, pinned like ours) and read back from its --json output. At 1
// connection the reference is the bare fastify route; at 50 connections it is the hand-minimal
// server (`checkpoint-minimal`: the required per-request features assembled by hand), measured in
// the same round. The bare route stays in the report at 50 connections without a target.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { repoPath, runNodeScript } from '../processes.mjs';
import { figureRow } from '../report/figures.mjs';
import { median } from '../stats.mjs';

const SCRIPT = repoPath('packages', 'server-http', 'bench', 'server.bench.mjs');
const MINIMAL_LABEL = 'hand-minimal server (checkpoint-minimal), 50 connections';

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
  const summary = (key) => report.summary[key];
  const perRoundRatio = (key, reference, name, scale = 1) => perRound.map((round) => (round[key][name] / round[reference][name]) * scale);
  const rows = [
    // 1 connection: the bare route stays the reference (the target is unchanged).
    figureRow({
      id: 'http.checkpoint.clean.c1.throughput',
      measurement: 'HTTP `checkpoint` of a clean runtime (reuse path), 1 connection: req/s',
      rounds: field('checkpoint@1', 'requestsPerSecond'),
      unit: 'req/s',
      detail: `p50 ${formatValue(summary('checkpoint@1').p50Ms, 'ms')}, p99 ${formatValue(summary('checkpoint@1').p99Ms, 'ms')} (bare: ${formatValue(summary('bare@1').p50Ms, 'ms')}, ${formatValue(summary('bare@1').p99Ms, 'ms')})`,
      reference: { label: 'bare route, 1 connection', rounds: field('bare@1', 'requestsPerSecond') },
      ratio: { label: 'of the bare route’s req/s', rounds: perRoundRatio('checkpoint@1', 'bare@1', 'requestsPerSecond', 100), unit: '%' },
      target: { text: '≥ 40% of the bare route’s req/s', met: ({ ratio }) => ratio >= 40 },
    }),
    // 50 connections: against the required features assembled by hand (checkpoint-minimal),
    // measured in the same round by the same load generator.
    figureRow({
      id: 'http.checkpoint.clean.c50.throughput',
      measurement: 'HTTP `checkpoint` of a clean runtime (reuse path), 50 connections: req/s',
      rounds: field('checkpoint@50', 'requestsPerSecond'),
      unit: 'req/s',
      detail: `p50 ${formatValue(summary('checkpoint@50').p50Ms, 'ms')}, p99 ${formatValue(summary('checkpoint@50').p99Ms, 'ms')}`,
      reference: { label: MINIMAL_LABEL, rounds: field('checkpoint-minimal@50', 'requestsPerSecond') },
      ratio: { label: 'of the hand-minimal server’s req/s', rounds: perRoundRatio('checkpoint@50', 'checkpoint-minimal@50', 'requestsPerSecond', 100), unit: '%' },
      target: { text: '≥ 60% of the hand-minimal server’s req/s', met: ({ ratio }) => ratio >= 60 },
    }),
    ...[
      ['checkpoint', 'http.checkpoint.clean.c50.p99', 'HTTP `checkpoint` of a clean runtime (reuse path)'],
      ['exec', 'http.exec.c50.p99', 'HTTP `exec` (`echo hi`), memory provider'],
    ].map(([scenario, id, title]) =>
      figureRow({
        id,
        measurement: `${title}, 50 connections: p99`,
        rounds: field(`${scenario}@50`, 'p99Ms'),
        unit: 'ms',
        detail: `p50 ${formatValue(summary(`${scenario}@50`).p50Ms, 'ms')}; ${Math.round(summary(`${scenario}@50`).requestsPerSecond)} req/s`,
        reference: { label: `${MINIMAL_LABEL} p99`, rounds: field('checkpoint-minimal@50', 'p99Ms') },
        ratio: { label: 'p99 vs the hand-minimal server’s p99', rounds: perRoundRatio(`${scenario}@50`, 'checkpoint-minimal@50', 'p99Ms'), unit: '×' },
        target: { text: 'p99 ≤ 1.5× the hand-minimal server’s', met: ({ ratio }) => ratio <= 1.5 },
      }),
    ),
  ];
  rows.push(...diagnosticRows(perRound, field));
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
 * Reported, not judged (no target): the clean checkpoint against the bare route, what its HTTP
 * layer costs on its own, and the throughput its CPU cost implies. The HTTP layer alone is measured twice (server.bench's
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
    againstBare('checkpoint@50', 'http.checkpoint.clean.c50.vs-bare', 'HTTP `checkpoint` of a clean runtime (reuse path) against the bare fastify route, 50 connections: req/s'),
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
    // Like for like, reported: the hand-assembled features in front of the same clean checkpoints
    // through core (minimal-work-server.mjs), so the row above splits into what the runtime API's
    // HTTP layer costs and what the operation itself does.
    figureRow({
      id: 'http.checkpoint.clean.c50.vs-work-minimal',
      measurement: 'HTTP `checkpoint` of a clean runtime against the required features assembled by hand doing the same clean checkpoint through core (minimal-work-server.mjs), 50 connections: req/s',
      rounds: field('checkpoint@50', 'requestsPerSecond'),
      unit: 'req/s',
      detail: `server CPU ${formatValue(median(cpu('checkpoint@50')), 'µs')} per request; the hand-minimal server doing it: ${formatValue(median(cpu('checkpoint-work-minimal@50')), 'µs')}`,
      reference: { label: 'hand-minimal server doing the clean checkpoint through core, 50 connections', rounds: field('checkpoint-work-minimal@50', 'requestsPerSecond') },
      ratio: {
        label: 'of its req/s',
        rounds: perRound.map((round) => (round['checkpoint@50'].requestsPerSecond / round['checkpoint-work-minimal@50'].requestsPerSecond) * 100),
        unit: '%',
      },
    }),
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
