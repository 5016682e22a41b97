import { Writable } from 'node:stream';
import { MemoryRuntimeStore, RuntimeService, type BackendProviderV1, type RuntimeServiceOptions, type WebhookDirectory } from '@runtimectl/core';
import { createMemoryProvider, type MemoryProvider } from '@runtimectl/testkit';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { pino } from 'pino';
import { buildServer, createServerTelemetry, type EventStreamOptions, type FleetOptions, type IdempotencyOptions, type ServerConfig, type ServerTelemetry } from '../src/index';

export const TEST_TOKEN = 'test-token-5f0c2d6e9a1b4c7d';

export interface TestServer {
  app: FastifyInstance;
  service: RuntimeService;
  /** The snapshot-capable memory provider (`memory`, the default). */
  provider: MemoryProvider;
  /** A memory provider without snapshot methods (`nosnap`). */
  noSnapshots: MemoryProvider;
  store: MemoryRuntimeStore;
  telemetry: ServerTelemetry;
  /** Every log line the server wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log output, for "never logged" checks. */
  logText: () => string;
}

export interface TestServerOptions {
  config?: Partial<ServerConfig>;
  store?: MemoryRuntimeStore;
  service?: Partial<RuntimeServiceOptions>;
  providers?: BackendProviderV1[];
  /** Turns on Idempotency-Key handling over this store (default: the test server's own store). */
  idempotency?: Partial<IdempotencyOptions>;
  /** This server as a node of a fleet. */
  fleet?: FleetOptions;
  /** How event streams wait and keep alive. */
  events?: EventStreamOptions;
  /** What `GET /webhooks` shows. */
  webhooks?: WebhookDirectory;
  /** More routes under the API's hooks (the console, …). */
  routes?: readonly FastifyPluginAsync[];
}

/** A real service (memory store, memory providers) behind a real server; not listening. */
export function createTestServer(options: TestServerOptions = {}): TestServer {
  const provider = createMemoryProvider();
  const noSnapshots = createMemoryProvider({ snapshots: false, providerId: 'nosnap' });
  const store = options.store ?? new MemoryRuntimeStore();
  const telemetry = createServerTelemetry({ processMetrics: false });
  const service = new RuntimeService({
    store,
    providers: options.providers ?? [provider, noSnapshots],
    defaultProvider: 'memory',
    observer: telemetry.observer,
    // One node: the service's node is the server's (a runtime it opens is home here).
    ...(options.fleet ? { node: { nodeId: options.fleet.nodeId, leaseMs: 15_000 } } : {}),
    ...options.service,
  });
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const app = buildServer({
    service,
    logger,
    telemetry,
    config: { version: '9.9.9-test', ...options.config },
    ...(options.idempotency ? { idempotency: { store, ...options.idempotency } } : {}),
    ...(options.fleet ? { fleet: options.fleet } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.routes ? { routes: options.routes } : {}),
  });
  const logText = () => chunks.join('');
  return {
    app,
    service,
    provider,
    noSnapshots,
    store,
    telemetry,
    get logs() {
      return logText()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText,
  };
}

export const base64 = (text: string) => Buffer.from(text).toString('base64');
export const fromBase64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');
