// One load run, in its own process (the load generator must not share the server's event loop).
// argv[2] is a JSON spec: {url, method, headers, bodies, connections, durationSec}. Connection i
// sends bodies[i % bodies.length], so concurrent control operations hit different runtimes.
// Prints one JSON line: throughput and latency percentiles measured with sub-millisecond
// precision from autocannon's per-response timings (its own histogram has 1 ms resolution).
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2]);
const bodies = spec.bodies ?? [undefined];
let nextClient = 0;
const latenciesMs = [];

const instance = autocannon({
  url: spec.url,
  method: spec.method,
  headers: spec.headers,
  connections: spec.connections,
  duration: spec.durationSec,
  setupClient(client) {
    const body = bodies[nextClient++ % bodies.length];
    if (body !== undefined) client.setBody(body);
  },
});
instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
  if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
});

const result = await instance;
latenciesMs.sort((a, b) => a - b);
const percentile = (p) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor((p / 100) * latenciesMs.length))] ?? null;
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
  })}\n`,
);
