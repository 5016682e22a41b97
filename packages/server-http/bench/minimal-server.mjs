// The required per-request features of issue 4, assembled minimally by hand (the hand-minimal
// references of the benchmarks): fastify with a request id per request, the bearer check, zod
// request and response schemas, one pino access line (through the daemon's destination, to
// /dev/null), and the request counter and latency histogram. Left out: everything else the
// runtime API does per request (route config, `server-timing`, the JSON depth check, operation
// metrics). Callers add their routes, then `listen`.
import Fastify, { LogController } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { BearerTokenVerifier, requestIdOf, turnBatchedDestination } from '../dist/index.js';

/** A fastify app with the required features and nothing else; add routes with `schema: {body, response}`. */
export function minimalServer() {
  const verifier = new BearerTokenVerifier(process.env.BENCH_TOKEN ?? 'bench-token');
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'];
  const requests = new Counter({ name: 'http_requests_total', help: 'requests', labelNames, registers: [registry] });
  const seconds = new Histogram({ name: 'http_request_duration_seconds', help: 'latency', labelNames, registers: [registry] });

  const app = Fastify({
    loggerInstance: pino({ level: 'info' }, turnBatchedDestination('/dev/null')),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdOf,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(({ schema }) => (data) => JSON.stringify(schema.parse(data)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (verifier.verify(request.headers.authorization)) done();
    else reply.code(401).send({ error: 'missing or invalid bearer token', code: 'unauthorized' });
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url, status_code: String(reply.statusCode) };
    requests.inc(labels);
    seconds.observe(labels, reply.elapsedTime / 1000);
    request.log.info({ method: request.method, route: labels.route, status: reply.statusCode, duration_ms: reply.elapsedTime }, 'request completed');
    done();
  });
  return app;
}

/** Listens on a free loopback port, prints `{"url": …}` (what the benchmarks wait for), stops on SIGTERM. */
export async function listenForBench(app) {
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ url: address })}\n`);
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}
