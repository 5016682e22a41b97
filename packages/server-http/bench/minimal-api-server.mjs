// A diagnostic reference for server.bench.mjs --diagnose: what issue 4's required features cost
// when assembled minimally, by hand, in front of an answer that costs nothing. One route,
// `POST /api/v1/runtimes/checkpoint`: fastify with a request id per request, the bearer check,
// the zod request schema, one pino access line (through the daemon's destination, to
// /dev/null), the request counter and latency histogram, and the zod response schema, answering
// the same checkpoint result every time. Left out: everything else the runtime API does per
// request (route config, `server-timing`, the JSON depth check, operation metrics, the service).
import Fastify, { LogController } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { RuntimeCheckpointRequestSchema, RuntimeCheckpointResultSchema } from '@runtimectl/core';
import { BearerTokenVerifier, requestIdOf, turnBatchedDestination } from '../dist/index.js';

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

const checkpointId = 'rtcp_0192aabbccddeeff0011223344556677';
const answer = RuntimeCheckpointResultSchema.parse({
  checkpoint_id: checkpointId,
  runtime: { runtime_id: 'bench-000', conversation_id: 'bench', sender_id: 'bench', status: 'idle', head_checkpoint_id: checkpointId, created_at_ms: 1, updated_at_ms: 2, metadata: {} },
  parent_checkpoint_id: 'rtcp_0192aabbccddeeff0011223344556670',
  created_at_ms: 3,
  name: null,
  metadata: {},
  reused_backend_snapshot: true,
  manifest_root: null,
});
app.post(
  '/api/v1/runtimes/checkpoint',
  { schema: { body: RuntimeCheckpointRequestSchema, response: { 200: RuntimeCheckpointResultSchema } } },
  async () => answer,
);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
