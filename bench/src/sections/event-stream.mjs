// Issue 23's event-stream target: `runtimed` (memory store and provider) appends an event for
// every checkpoint; 10 subscribers follow `GET /api/v1/events` over SSE while a paced load makes
// 1,000 checkpoints a second. Delivery latency of an event = when a subscriber parsed it minus
// its `at_ms` (the daemon's clock when the checkpoint was made, before its commit: the figure
// includes the commit). The same machine's clock on both sides. Reference in the same run: the
// p99 of the checkpoint requests themselves.
import { mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { formatValue } from '../format.mjs';
import { postJson } from '../timed-post.mjs';
import { startRuntimed, stopChild } from '../processes.mjs';
import { median, quantileOfSorted } from '../stats.mjs';
import { figureRow } from '../report/figures.mjs';

const SUBSCRIBERS = Number(process.env.BENCH_SSE_SUBSCRIBERS ?? 10);
const RATE_PER_SECOND = 1_000;
const RUNTIMES = 50;
const TICK_MS = 10;

/** The load's connections: kept alive and at most 32 (the daemon caps connections per address). */
const agent = new Agent({ keepAlive: true, maxSockets: 32 });

const post = (url, path, body) => postJson(agent, url, path, body);

/** One SSE subscriber: the latency of every event it parses. */
function subscribe(url, after) {
  const controller = new AbortController();
  const latencies = [];
  let received = 0;
  const connected = fetch(`${url}/api/v1/events?after=${after}&types=checkpoint.created`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const done = connected.then(async (response) => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          latencies.push(Date.now() - JSON.parse(data.slice(6)).at_ms);
          received += 1;
        }
      }
    } catch {
      // aborted at the end of the round
    }
  });
  return { connected, done, latencies, received: () => received, stop: () => controller.abort() };
}

/** Checkpoints at `RATE_PER_SECOND` for `durationSec`, round robin over the runtimes; resolves the requests' latencies and how many made an event. */
async function paceCheckpoints(url, runtimeIds, durationSec) {
  const requestMs = [];
  let made = 0;
  let next = 0;
  const inFlight = new Set();
  const perTick = (RATE_PER_SECOND * TICK_MS) / 1000;
  const ticks = (durationSec * 1000) / TICK_MS;
  const startedAt = performance.now();
  for (let tick = 0; tick < ticks; tick += 1) {
    for (let n = 0; n < perTick; n += 1) {
      const runtimeId = runtimeIds[next++ % runtimeIds.length];
      const sentAt = performance.now();
      const request = post(url, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }).then(({ status }) => {
        requestMs.push(performance.now() - sentAt);
        if (status === 200) made += 1;
      });
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    const wait = startedAt + (tick + 1) * TICK_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(inFlight);
  return { requestMs, made, seconds: (performance.now() - startedAt) / 1000 };
}

async function oneRound(round, { profile, tmpRoot, log }) {
  const stateDir = mkdtempSync(join(tmpRoot, 'events-state-'));
  // The memory store: the figure is the stream's. On SQLite with synchronous=full these disks take
  // about 400 checkpoints a second, so the load could not reach the target's rate.
  const daemon = await startRuntimed({ args: ['--provider', 'memory', '--store', 'memory', '--state-dir', stateDir], core: 0 });
  const subscribers = [];
  try {
    const runtimeIds = [];
    for (let index = 0; index < RUNTIMES; index += 1) {
      const opened = await post(daemon.url, '/api/v1/runtimes/open', { conversation_id: 'bench', sender_id: 'events' });
      runtimeIds.push(opened.json.runtime.runtime_id);
      await post(daemon.url, '/api/v1/runtimes/checkpoint', { runtime_id: opened.json.runtime.runtime_id });
    }
    const { last_event_id: after } = await (await fetch(`${daemon.url}/api/v1/events?limit=1`)).json();
    for (let index = 0; index < SUBSCRIBERS; index += 1) subscribers.push(subscribe(daemon.url, after));
    await Promise.all(subscribers.map((subscriber) => subscriber.connected));
    const load = await paceCheckpoints(daemon.url, runtimeIds, profile.events.durationSec);
    const deadline = performance.now() + 10_000;
    while (subscribers.some((subscriber) => subscriber.received() < load.made) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const latencies = subscribers.flatMap((subscriber) => subscriber.latencies).sort((a, b) => a - b);
    const delivered = Math.min(...subscribers.map((subscriber) => subscriber.received()));
    const result = {
      eventsPerSecond: load.made / load.seconds,
      made: load.made,
      deliveredToEach: delivered,
      p50Ms: quantileOfSorted(latencies, 0.5),
      p99Ms: quantileOfSorted(latencies, 0.99),
      requestP99Ms: quantileOfSorted([...load.requestMs].sort((a, b) => a - b), 0.99),
    };
    log(`round ${round + 1}: ${Math.round(result.eventsPerSecond)} events/s to ${SUBSCRIBERS} subscribers, each got ${delivered} of ${load.made}; delivery p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; checkpoint request p99 ${result.requestP99Ms.toFixed(1)} ms`);
    return result;
  } finally {
    for (const subscriber of subscribers) subscriber.stop();
    await Promise.all(subscribers.map((subscriber) => subscriber.done));
    await stopChild(daemon.child);
  }
}

export async function measureEventStream(context) {
  const rounds = [];
  for (let round = 0; round < context.profile.events.rounds; round += 1) rounds.push(await oneRound(round, context));
  const rows = [
    figureRow({
      id: 'events.sse.p99',
      measurement: `SSE delivery latency of the event log, ${RATE_PER_SECOND.toLocaleString('en-US')} events/s (checkpoints) to ${SUBSCRIBERS} subscribers: p99`,
      rounds: rounds.map((round) => round.p99Ms),
      unit: 'ms',
      detail: `p50 ${formatValue(median(rounds.map((round) => round.p50Ms)), 'ms')}; ${Math.round(median(rounds.map((round) => round.eventsPerSecond)))} events/s achieved; every subscriber got ${rounds.every((round) => round.deliveredToEach === round.made) ? 'every event' : 'NOT every event'}`,
      reference: { label: 'the checkpoint requests’ own p99 under that load', rounds: rounds.map((round) => round.requestP99Ms) },
      target: {
        text: 'p99 ≤ 50 ms at ≥ 950 events/s, every event to every subscriber',
        met: ({ value }) => value <= 50 && rounds.every((round) => round.deliveredToEach === round.made && round.eventsPerSecond >= 950),
      },
    }),
  ];
  const details = [
    `Every round: fresh \`runtimed --provider memory\` (memory store) on core 0, ${RUNTIMES} runtimes checkpointed round robin at ${RATE_PER_SECOND}/s for ${context.profile.events.durationSec} s (each checkpoint commits one \`checkpoint.created\` event), ${SUBSCRIBERS} SSE subscribers in the bench process; latency = parse time − the event's \`at_ms\`.`,
  ];
  return { rows, details, raw: { rounds } };
}
