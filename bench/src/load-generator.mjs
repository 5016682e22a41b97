// The load generator: its own process (pinned to its own core by the parent), driven over IPC
// so one process serves every load of a run instead of paying Node + autocannon start-up per
// load. Each message is a load spec; the answer is per-step latency percentiles measured from
// autocannon's per-response timings (sub-millisecond; its own histogram has 1 ms resolution).
//
// A spec: { url, connections, durationSec, headers, sequences: [[{ step, method, path, body,
// expectDirtyCheckpoint }]] }. Connection i replays sequences[i % sequences.length] in order,
// one request in flight per connection, so "write, then checkpoint" really is a write before
// every checkpoint on that connection's runtime.
import autocannon from 'autocannon';

/** Runs one load and returns what it measured. */
async function runLoad(spec) {
  let nextConnection = 0;
  let lastStep;
  const latenciesByStep = new Map();
  let reusedSnapshots = 0;
  let failures = 0;
  let firstFailure;
  const requestsOf = (sequence) =>
    sequence.map((request) => ({
      method: request.method,
      path: request.path,
      ...(request.body !== undefined ? { body: request.body } : {}),
      // Called just before autocannon emits 'response' for this request, in the same tick:
      // that is how a response time is attributed to its step.
      onResponse(status, body) {
        lastStep = request.step;
        if (status < 200 || status >= 300) {
          failures += 1;
          firstFailure ??= `${request.step}: ${status} ${String(body).slice(0, 300)}`;
          return;
        }
        if (request.expectDirtyCheckpoint && JSON.parse(body).reused_backend_snapshot !== false) reusedSnapshots += 1;
      },
    }));
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSec,
    headers: spec.headers,
    requests: requestsOf(spec.sequences[0]),
    setupClient(client) {
      client.setRequests(requestsOf(spec.sequences[nextConnection++ % spec.sequences.length]));
    },
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode < 200 || statusCode >= 300) return;
    const list = latenciesByStep.get(lastStep) ?? [];
    list.push(responseTimeMs);
    latenciesByStep.set(lastStep, list);
  });
  const result = await instance;
  const steps = {};
  for (const [step, list] of latenciesByStep) {
    list.sort((a, b) => a - b);
    const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
    steps[step] = { count: list.length, perSecond: list.length / spec.durationSec, p50Ms: at(0.5), p99Ms: at(0.99) };
  }
  return {
    totalRequests: result.requests.total,
    requestsPerSecond: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    failures,
    firstFailure: firstFailure ?? null,
    reusedSnapshots,
    steps,
  };
}

process.on('message', async ({ id, spec }) => {
  try {
    process.send({ id, result: await runLoad(spec) });
  } catch (error) {
    process.send({ id, error: error.stack ?? String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
