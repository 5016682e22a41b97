// The runtime API as the daemon would run it: memory store and provider, telemetry wired into
// the service, bearer auth on, pino at info through the daemon's destination (each turn's lines in
// one synchronous write; to /dev/null here, so the terminal does not distort the figures; the
// cost of formatting and writing the lines stays).
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { pino } from 'pino';
import { buildServer, createServerTelemetry, turnBatchedDestination } from '../dist/index.js';

const token = process.env.BENCH_TOKEN ?? 'bench-token';
const telemetry = createServerTelemetry();
const service = new RuntimeService({
  store: new MemoryRuntimeStore(),
  providers: [createMemoryProvider()],
  defaultProvider: 'memory',
  observer: telemetry.observer,
});
if (process.env.BENCH_FREE_CHECKPOINT) {
  // A diagnostic (server.bench.mjs --diagnose): once a runtime's checkpoint has taken the reuse
  // path, later checkpoints answer that result again without doing the operation, so the
  // figures show what the HTTP layer costs on its own for this route.
  const checkpoint = service.checkpoint.bind(service);
  const answers = new Map();
  service.checkpoint = async (request, options) => {
    const known = answers.get(request.runtime_id);
    if (known) return known;
    const result = await checkpoint(request, options);
    if (result.reused_backend_snapshot) answers.set(request.runtime_id, result);
    return result;
  };
}
const logger = pino({ level: 'info' }, turnBatchedDestination(process.env.BENCH_LOG ?? '/dev/null'));
const app = buildServer({ service, logger, telemetry, config: { version: '0.0.0-bench', auth: { bearerToken: token } } });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
