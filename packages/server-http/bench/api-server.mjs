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
const logger = pino({ level: 'info' }, turnBatchedDestination(process.env.BENCH_LOG ?? '/dev/null'));
const app = buildServer({ service, logger, telemetry, config: { version: '0.0.0-bench', auth: { bearerToken: token } } });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
