import type { AddressInfo } from 'node:net';
import { ProviderRegistry, RuntimeService, type ProviderDefinition, type ReconcileReport } from '@runtimectl/core';
import { buildServer, createServerTelemetry, turnBatchedDestination } from '@runtimectl/server-http';
import { authOptionsOf, describeAuth } from './auth-options';
import { createWebhookDirectory } from '@runtimectl/webhooks';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { ResolvedConfig } from '../config/load-config';
import { DAEMON_VERSION } from '../version';
import { assertSafeBind } from './bind-safety';
import { loadProviders, type LoadedProvider } from '../providers/load-providers';
import { createProviders } from './create-providers';
import { unknownProviderHint } from './unknown-provider-hint';
import { describeTarget } from '@runtimectl/store-postgres';
import { createStore } from './create-store';
import { describeLocalIsolation } from './local-isolation';
import { describeSnapshotStores } from './snapshot-stores';
import { loadInstallationId } from './installation-id';
import { listenBeforeJoining } from './listen-before-joining';
import { loopbackUrlOf, mcpRoutes } from './mcp-route';
import { consoleSetup } from './console-route';
import { loadNodeId } from './node-id';
import { makeStateOwnerOnly, stateLocationsOf } from './owner-only-state';
import { MEMORY_STORE_WARNING, releaseNonDurableState } from './release-non-durable-state';
import { startWebhooks } from './start-webhooks';
import { lockStateDir, type StateDirLock } from './state-dir-lock';

function describeReconciliation(report: ReconcileReport): string {
  const parts = [
    `${report.resolvedIntents} open intents resolved`,
    `${report.releasedBackends.length} unbound backends released`,
    `${report.deletedSnapshots.length} unkept snapshots deleted`,
    `${report.failedRuntimes.length} runtimes marked failed`,
    `${report.missingSnapshots.length} needed snapshots no longer at their provider`,
  ];
  const errors = report.errors.length > 0 ? `; incomplete: ${report.errors.join('; ')}` : '';
  return `start-up reconciliation: ${parts.join(', ')}${errors}`;
}

export interface RunningDaemon {
  /** http://host:port actually listened on (port 0 resolved). */
  url: string;
  service: RuntimeService;
  app: FastifyInstance;
  /** What start-up reconciliation found and did. */
  reconciliation: ReconcileReport;
  /** This daemon's node id in the fleet (`fleet.node_id`, else the one kept in the state directory). */
  nodeId: string;
  /** The one line printed at start: address, node id, providers, store, auth, the local provider's isolation, fs's snapshot store. */
  banner: string;
  /**
   * Stops accepting, lets in-flight requests finish (bounded by http.shutdown_timeout_ms), and
   * closes the store. With a durable store backends are not released: they stay bound for the
   * next start. With the memory store, which forgets them, every runtime is closed first
   * (sandboxes released, snapshots deleted at the providers). Lets the state directory go last.
   */
  close(): Promise<void>;
}

/** What an embedding program may hand startDaemon besides the configuration. */
export interface StartDaemonOptions {
  /** Default: pino JSON on stderr at `log.level`. */
  logger?: Logger;
  /**
   * Provider definitions to run without a package to load (a program embedding the daemon, or a
   * test): each runs as `[providers.<definition.id>]`, configured by that section (its settings,
   * environment variables and flags, exactly as a package's), unless the section sets
   * `enabled = false` or names a package of its own.
   */
  providers?: readonly ProviderDefinition[];
}

/** The store as the banner names it: never the database URL's user or password. */
function describeStore(config: ResolvedConfig): string {
  if (config.store.kind === 'sqlite') return `sqlite ${config.storePath}`;
  if (config.store.kind === 'postgres') return `postgres ${describeTarget(config.databaseUrl!)} schema ${config.store.schema}`;
  return 'memory (lost on exit)';
}

/**
 * How long a forwarded request may take: the longest operation (an exec, or a provider call),
 * plus the time its request may take to arrive.
 */
function forwardTimeoutMsOf(config: ResolvedConfig): number {
  return Math.max(config.runtimes.exec_timeout_ms, config.runtimes.provider_call_timeout_ms) + config.http.request_timeout_ms;
}

/**
 * The composition root: config → providers → store → service → server → listen → join the
 * fleet → serve. Logs (pino JSON) go to stderr so stdout carries only the start banner, one
 * write per event-loop turn (see turnBatchedDestination).
 */
export async function startDaemon(config: ResolvedConfig, options: StartDaemonOptions = {}): Promise<RunningDaemon> {
  const logger = options.logger ?? pino({ level: config.log.level }, turnBatchedDestination(2));
  assertSafeBind(config.http.host, authOptionsOf(config) !== undefined, config.http.allow_insecure_bind);
  // Every provider package is found, checked and its settings validated before anything is
  // written: a configuration mistake stops the start with nothing changed.
  const loaded = await loadProviders(config, options.providers);
  // Before anything writes there: what an older build left world-readable is tightened first
  // (and a state directory that is not runtimed's own is refused before the lock file is made).
  makeStateOwnerOnly(stateLocationsOf(config, loaded));
  // Before anything reads the state (node id, providers' roots, the store): a second daemon on
  // it would reconcile away the first one's work.
  const lock = await lockStateDir(config.stateDir);
  try {
    return await startLocked(config, logger, lock, loaded);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** startDaemon's work once the state directory is this process's; `close()` lets it go last. */
async function startLocked(config: ResolvedConfig, logger: Logger, lock: StateDirLock, loaded: LoadedProvider[]): Promise<RunningDaemon> {
  const nodeId = config.fleet.node_id ?? loadNodeId(config.stateDir);
  const telemetry = createServerTelemetry();
  const providers = await createProviders(loaded, { config, nodeId, logger, telemetry });
  // The local provider's isolation probe runs while the store opens and reconciles.
  const auth = authOptionsOf(config);
  const isolationProbe = describeLocalIsolation(providers, auth !== undefined);
  isolationProbe.catch(() => undefined);
  const snapshotStoresProbe = describeSnapshotStores(providers);
  snapshotStoresProbe.catch(() => undefined);
  const store = await createStore(config);
  const durable = config.store.kind !== 'memory';
  if (!durable) logger.warn(MEMORY_STORE_WARNING);
  const service = new RuntimeService({
    store,
    providers: new ProviderRegistry(providers, { unknownProviderHint }),
    defaultProvider: config.runtimes.default_provider,
    // This node's candidate: the fleet's installation id is the one the store holds (service.start()).
    installationId: loadInstallationId(config.stateDir),
    node: { nodeId, leaseMs: config.fleet.lease_ms, advertiseUrl: config.fleet.advertise_url, version: DAEMON_VERSION },
    timeouts: { controlMs: config.runtimes.provider_call_timeout_ms },
    exec: { defaultTimeoutMs: config.runtimes.exec_timeout_ms, maxOutputBytes: config.runtimes.exec_max_output_bytes },
    files: { readMaxBytes: config.runtimes.read_file_max_bytes },
    checkout: { parallelism: config.runtimes.checkout_parallelism },
    events: { retentionMs: config.runtimes.event_retention_ms },
    retention: {
      keepLast: config.retention.keep_last ?? null,
      expireUnusedAfterMs: config.retention.expire_unused_after_ms ?? null,
      intervalMs: config.retention.interval_ms,
    },
    expiry: { keepSnapshots: config.runtimes.expiry_keep_snapshots },
    idle: { pauseAfterMs: config.runtimes.idle_pause_after_ms ?? null, autoResume: config.runtimes.auto_resume },
    restores: { verify: config.runtimes.verify_restores },
    observer: telemetry.observer,
  });
  const webConsole = consoleSetup(config.http.console);
  const app = buildServer({
    service,
    telemetry,
    logger,
    idempotency: {
      store,
      retentionMs: config.http.idempotency_retention_ms,
      maxResponseBytes: config.http.idempotency_max_response_bytes,
      maxTotalBytes: config.http.idempotency_max_total_bytes,
    },
    fleet: {
      nodeId,
      directory: { nodes: () => service.nodes(), nodeStates: () => service.nodeStates(), storeTimeMs: () => store.storeTimeMs() },
      homes: store,
      forward: config.fleet.forward,
      forwardTimeoutMs: forwardTimeoutMsOf(config),
      ...(config.fleetSecret ? { secret: config.fleetSecret } : {}),
    },
    webhooks: createWebhookDirectory(store, config.webhookSettings),
    // POST /mcp: its tool calls come back to this daemon on loopback, with the caller's key.
    // The web console (GET /console/): prebuilt files; its data comes from the API with the user's key.
    routes: [
      mcpRoutes(() => loopbackUrlOf(app.server.address() as AddressInfo)),
      ...webConsole.routes,
    ],
    events: {
      maxStreams: config.http.max_event_streams,
      maxStreamsPerAddress: config.http.max_event_streams_per_address,
      maxLifetimeMs: config.http.event_stream_max_lifetime_ms,
      writeTimeoutMs: config.http.event_stream_write_timeout_ms,
    },
    config: {
      version: DAEMON_VERSION,
      bodyLimitBytes: config.http.body_limit_bytes,
      allowedHosts: config.http.allowed_hosts,
      requestTimeoutMs: config.http.request_timeout_ms,
      headersTimeoutMs: config.http.headers_timeout_ms,
      keepAliveTimeoutMs: config.http.keep_alive_timeout_ms,
      maxConnections: config.http.max_connections,
      maxConnectionsPerAddress: config.http.max_connections_per_address,
      // Keys created at run time (POST /keys) live in the store: every node of a fleet honours them.
      ...(auth ? { auth: { ...auth, store } } : {}),
    },
  });
  // The address first: a daemon that cannot have it must not join the fleet (see listenBeforeJoining).
  const gate = await listenBeforeJoining(app, config.http.host, config.http.port).catch(async (error: unknown) => {
    await app.close();
    await service.stop();
    await store.close();
    throw error;
  });
  // Then join the fleet (installation id, node registration, heartbeat) and account for whatever
  // a crash left at the providers, before the held requests are served.
  let reconciliation: ReconcileReport;
  let localIsolation: string | undefined;
  let snapshotStores: string | undefined;
  try {
    reconciliation = await service.reconcile();
    logger.info({ reconciliation }, describeReconciliation(reconciliation));
    localIsolation = await isolationProbe;
    snapshotStores = await snapshotStoresProbe;
  } catch (error) {
    gate.abandon();
    await app.close();
    await service.stop();
    await store.close();
    throw error;
  }
  telemetry.recordReconciliation(reconciliation);
  // Off the request path: the engine only reads the event log (and its own cursors).
  const webhooks = startWebhooks(config, store, service, nodeId, logger, telemetry);
  gate.open();
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const providerList = providers
    .map((provider) => (provider.providerId === config.runtimes.default_provider ? `${provider.providerId} (default)` : provider.providerId))
    .join(', ');
  const storeLabel = describeStore(config);
  const banner = [
    `runtimed ${DAEMON_VERSION} listening on ${url}`,
    `node: ${nodeId}`,
    `providers: ${providerList}`,
    `store: ${storeLabel}`,
    `auth: ${describeAuth(config)}`,
    ...(localIsolation ? [localIsolation] : []),
    ...(snapshotStores ? [snapshotStores] : []),
    webConsole.describe(url),
  ].join(' · ');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, config.http.shutdown_timeout_ms).unref());
        await Promise.race([app.close(), deadline]);
        if (!durable) await releaseNonDurableState(service, logger);
        // After the last operation's events; before the store closes (it writes the cursors).
        await webhooks.stop();
        await service.stop();
        await store.close();
      } finally {
        lock.release();
      }
    })());
  return { url, service, app, nodeId, banner, reconciliation, close };
}
