import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { NodeDirectory } from '../fleet/fleet-options';
import { webhookMetrics, type WebhookBacklogSource } from './webhook-metrics';
import type { OperationEvent, ProviderCallEvent, ReconcileReport, RuntimeService, RuntimeServiceObserver, WebhookAttemptOutcome } from '@runtimectl/core';

export interface ServerTelemetryOptions {
  /** Prefix of every metric name. Default `runtimectl_`. */
  prefix?: string;
  /** Also export Node's process metrics (CPU, memory, event-loop delay, GC). Default true. */
  processMetrics?: boolean;
}

/** What the workspace-usage gauge reads at scrape time (e.g. the local provider's `workspaceUsage`). */
export type WorkspaceUsageSource = () => { bytesUsed: number };

/** This server as a node of a fleet, for `node_info` and the `fleet_nodes` gauge. */
export interface FleetMetricsSource {
  nodeId: string;
  version: string;
  directory: Pick<NodeDirectory, 'nodeStates'>;
}

/** What the live-runtimes and keep-alive gauges read at scrape time. */
export type RuntimeCountSource = Pick<RuntimeService, 'runtimeCounts'> & Partial<Pick<RuntimeService, 'keptAliveBackends'>>;

const HTTP_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
// From a clean checkpoint (sub-millisecond) to a retention pass over a large store (2 s is its target).
const OPERATION_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120];
const PROVIDER_BUCKETS_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Metrics for one server. Create it before the `RuntimeService`, hand `observer` to the service
 * and the telemetry itself to `buildServer`: the service reports provider calls and operations
 * to `observer`, the server reports requests, and `/metrics` renders `registry` (never
 * prom-client's global registry). Per-request provider time is not here: see provider-timing.ts.
 */
export class ServerTelemetry {
  readonly registry = new Registry();
  /** Pass to `new RuntimeService({ observer })`. Never throws. */
  readonly observer: RuntimeServiceObserver;

  readonly #requests: Counter<'method' | 'route' | 'status_code'>;
  readonly #requestSeconds: Histogram<'method' | 'route' | 'status_code'>;
  readonly #operations: Counter<'operation' | 'provider' | 'outcome'>;
  readonly #operationSeconds: Histogram<'operation' | 'outcome'>;
  readonly #providerCallSeconds: Histogram<'provider' | 'call' | 'outcome'>;
  readonly #reconciled: Counter<'action'>;
  readonly #quotaRefusals: Counter<'operation'>;
  readonly #restoreVerifications: Counter<'provider' | 'outcome'>;
  #runtimeSource: RuntimeCountSource | undefined;
  #fleetSource: FleetMetricsSource | undefined;
  readonly #workspaceUsageSources: WorkspaceUsageSource[] = [];
  #webhookBacklog: WebhookBacklogSource | undefined;
  readonly #webhooks: ReturnType<typeof webhookMetrics>;

  constructor(options: ServerTelemetryOptions = {}) {
    const prefix = options.prefix ?? 'runtimectl_';
    const registers = [this.registry];
    this.#requests = new Counter({
      name: `${prefix}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    });
    this.#requestSeconds = new Histogram({
      name: `${prefix}http_request_duration_seconds`,
      help: 'Time from receiving a request to sending its response, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS_SECONDS,
      registers,
    });
    this.#operations = new Counter({
      name: `${prefix}operations_total`,
      help: 'Runtime operations finished, by operation, provider and outcome (ok or the error code).',
      labelNames: ['operation', 'provider', 'outcome'],
      registers,
    });
    this.#operationSeconds = new Histogram({
      name: `${prefix}operation_duration_seconds`,
      help: 'Duration of runtime operations (the service\'s own, e.g. a retention pass, included), by operation and outcome.',
      labelNames: ['operation', 'outcome'],
      buckets: OPERATION_BUCKETS_SECONDS,
      registers,
    });
    this.#providerCallSeconds = new Histogram({
      name: `${prefix}provider_call_duration_seconds`,
      help: 'Duration of calls into providers, by provider, call and outcome (ok or the error code).',
      labelNames: ['provider', 'call', 'outcome'],
      buckets: PROVIDER_BUCKETS_SECONDS,
      registers,
    });
    this.#reconciled = new Counter({
      name: `${prefix}reconciliation_total`,
      help: 'What start-up reconciliation did: resolved_intent, released_backend, deleted_snapshot, failed_runtime, completed_pause, missing_snapshot, error.',
      labelNames: ['action'],
      registers,
    });
    this.#quotaRefusals = new Counter({
      name: `${prefix}workspace_quota_refusals_total`,
      help: 'Workspace quota refusals: write (a write-file refused) or exec (a command stopped).',
      labelNames: ['operation'],
      registers,
    });
    this.#restoreVerifications = new Counter({
      name: `${prefix}restore_verifications_total`,
      help: 'Restored workspaces (checkout, fork, resume) compared with their checkpoint manifest, by provider and outcome (passed or failed).',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    const usageSources = this.#workspaceUsageSources;
    new Gauge({
      name: `${prefix}workspace_bytes_used`,
      help: 'Disk bytes of the workspaces measured since start (their last measurement), read at scrape time.',
      registers,
      collect() {
        this.set(usageSources.reduce((sum, source) => sum + source().bytesUsed, 0));
      },
    });
    const source = () => this.#runtimeSource;
    new Gauge({
      name: `${prefix}runtimes`,
      help: 'Runtimes by status (running = idle with an operation in flight), read at scrape time.',
      labelNames: ['status'],
      registers,
      async collect() {
        const service = source();
        if (!service) return;
        const counts = await service.runtimeCounts();
        this.reset();
        for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
      },
    });
    const fleet = () => this.#fleetSource;
    // An info metric (Prometheus practice): one sample of 1 naming the node; join it on `instance`
    // to label any other series by node, instead of a node label on every series.
    new Gauge({
      name: `${prefix}node_info`,
      help: 'This node of the fleet: always 1, labelled with its node id and version.',
      labelNames: ['node_id', 'version'],
      registers,
      collect() {
        const source = fleet();
        this.reset();
        if (source) this.set({ node_id: source.nodeId, version: source.version }, 1);
      },
    });
    new Gauge({
      name: `${prefix}fleet_nodes`,
      help: 'Nodes registered in the fleet by state (alive: heartbeat within the lease), read from the store at scrape time.',
      labelNames: ['state'],
      registers,
      async collect() {
        const source = fleet();
        if (!source) return;
        // The store unreachable: no samples (not stale ones), and the rest of /metrics still renders.
        const nodes = await source.directory.nodeStates().catch(() => undefined);
        this.reset();
        if (!nodes) return;
        const alive = nodes.filter((node) => node.alive).length;
        this.set({ state: 'alive' }, alive);
        this.set({ state: 'dead' }, nodes.length - alive);
      },
    });
    new Gauge({
      name: `${prefix}keep_alive_backends`,
      help: 'Backends this node keeps alive (refreshes so they do not lapse): every live runtime\'s on the fleet\'s maintenance lease holder, only the ones it just made or attached on the other nodes.',
      registers,
      collect() {
        const service = source();
        if (service?.keptAliveBackends) this.set(service.keptAliveBackends());
      },
    });
    this.#webhooks = webhookMetrics(this.registry, prefix, () => this.#webhookBacklog);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix });
    // The service calls these inside its operations: a metrics failure must never fail one.
    this.observer = {
      providerCall: (event) => {
        try {
          this.#onProviderCall(event);
        } catch {}
      },
      operation: (event) => {
        try {
          this.#onOperation(event);
        } catch {}
      },
      restoreVerification: (event) => {
        try {
          this.#restoreVerifications.inc({ provider: event.providerId, outcome: event.outcome });
        } catch {}
      },
    };
  }

  /** The service whose runtimes the gauge counts. `buildServer` binds the service it serves. */
  countRuntimesOf(source: RuntimeCountSource): void {
    this.#runtimeSource = source;
  }

  /** Exports `node_info` for this node and counts the fleet's nodes (`buildServer` binds its fleet). */
  watchFleet(source: FleetMetricsSource): void {
    this.#fleetSource = source;
  }

  /** Adds a provider's workspace usage to the `workspace_bytes_used` gauge. */
  watchWorkspaceUsage(source: WorkspaceUsageSource): void {
    this.#workspaceUsageSources.push(source);
  }

  /** Reports each webhook's pending events (`webhook_pending_events`) from `source` at scrape time. */
  watchWebhooks(source: WebhookBacklogSource): void {
    this.#webhookBacklog = source;
  }

  /** A webhook delivery attempt was recorded (`webhook_deliveries_total`). */
  recordWebhookAttempt(webhook: string, outcome: WebhookAttemptOutcome): void {
    this.#webhooks.recordAttempt(webhook, outcome);
  }

  /** A workspace quota refused a write or stopped a command. */
  recordWorkspaceQuotaRefusal(operation: 'write' | 'exec'): void {
    this.#quotaRefusals.inc({ operation });
  }

  recordRequest(method: string, route: string, statusCode: number, durationMs: number): void {
    const labels = { method, route, status_code: String(statusCode) };
    this.#requests.inc(labels);
    this.#requestSeconds.observe(labels, durationMs / 1000);
  }

  /** Counts what `RuntimeService.reconcile()` did at start-up. */
  recordReconciliation(report: ReconcileReport): void {
    this.#reconciled.inc({ action: 'resolved_intent' }, report.resolvedIntents);
    this.#reconciled.inc({ action: 'released_backend' }, report.releasedBackends.length);
    this.#reconciled.inc({ action: 'deleted_snapshot' }, report.deletedSnapshots.length);
    this.#reconciled.inc({ action: 'failed_runtime' }, report.failedRuntimes.length);
    this.#reconciled.inc({ action: 'completed_pause' }, report.completedPauses.length);
    this.#reconciled.inc({ action: 'missing_snapshot' }, report.missingSnapshots.length);
    this.#reconciled.inc({ action: 'error' }, report.errors.length);
  }

  /** Prometheus text exposition of every metric. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #onProviderCall(event: ProviderCallEvent): void {
    this.#providerCallSeconds.observe(
      { provider: event.providerId, call: event.call, outcome: event.outcome },
      event.durationMs / 1000,
    );
  }

  #onOperation(event: OperationEvent): void {
    this.#operations.inc({ operation: event.operation, provider: event.providerId ?? 'none', outcome: event.outcome });
    this.#operationSeconds.observe({ operation: event.operation, outcome: event.outcome }, event.durationMs / 1000);
  }
}

/** See `ServerTelemetry`. */
export function createServerTelemetry(options: ServerTelemetryOptions = {}): ServerTelemetry {
  return new ServerTelemetry(options);
}
