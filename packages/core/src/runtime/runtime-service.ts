import { EventSignal } from '../store/event-signal';
import { providerSettingsInForce } from './provider-settings';
import { listEvents } from './event-queries';
import { BackendManager } from '../backend/backend-manager';
import { ProviderCalls, type ProviderCallEvent, type ProviderCallSink } from '../backend/provider-calls';
import { SnapshotGuard } from '../backend/snapshot-guard';
import { RuntimectlError, type BackendProviderV1, providerCapabilities, type ExportedFile } from '@runtimectl/provider';
import { ProviderRegistry } from '../provider/provider-registry';
import type { IdempotencyRecord } from '../store/records';
import type { RuntimeStore } from '../store/runtime-store';
import type * as wire from '../wire';
import { checkoutChildren } from './checkout-children';
import { checkoutRuntime } from './checkout-runtime';
import { checkpointRuntime } from './checkpoint-runtime';
import { readCheckpointFile } from './checkpoint-files';
import { closeRuntime } from './close-runtime';
import * as data from './data-operations';
import { deleteCheckpointSnapshot } from './delete-snapshot';
import { listCheckpointTree } from './checkpoint-tree';
import { diffCheckpoints } from './diff-checkpoints';
import { forkRuntime, forkRuntimeChildren } from './fork-runtime';
import { createIdGenerator, type IdGenerator } from './ids';
import { openRuntime } from './open-runtime';
import { pauseRuntime } from './pause-runtime';
import { FleetMembership } from '../fleet/fleet-membership';
import { listFleetNodes, nodeLiveness, type FleetNode, type NodeState } from '../fleet/fleet-nodes';
import { KeepAliveDuty } from '../fleet/keep-alive-duty';
import { maintainFleet, reconcileAtStart } from '../fleet/maintenance';
import type { ReconcileReport } from './reconcile';
import { resumeRuntime } from './resume-runtime';
import type { RestoreVerificationEvent } from './verify-restore';
import { applyRetention, readAllSessions, type RetentionPassReport } from '../retention/retention-pass';
import { closeExpired, type ExpiryPassReport } from '../retention/expiry-pass';
import { policyScope } from '../fleet/policy-scope';
import { PolicySchedule } from '../fleet/policy-schedule';
import { IdleActivity } from '../idle/idle-activity';
import { AutoResumes } from '../idle/auto-resume';
import { flushActivity, pauseIdle, type IdlePassReport } from '../idle/idle-pass';
import { idleSettingsOf } from '../idle/idle-settings';
import { previewRetention } from '../retention/retention-preview';
import { pinCheckpoint } from '../retention/pin-checkpoint';
import type { RetentionPolicy } from '../retention/retention-policy';
import { checkoutSettingsOf, retentionSettingsOf } from './service-settings';
import { randomNodeId } from './ids';
import { RuntimeLeases } from './runtime-leases';
import * as queries from './runtime-queries';
import type { CheckoutSettings, ExecSettings, FileSettings, NodeIdentity, OperationScope, ServiceContext, VerifyRestoresMode } from './service-context';

export interface OperationEvent {
  operation: string;
  /** The provider the operation used, when it got that far. */
  providerId: string | null;
  /** 'ok' or the error code it ended with. */
  outcome: string;
  durationMs: number;
}

/** Per-call options every provider-touching operation accepts. */
export interface CallOptions {
  /**
   * Called after each provider call this operation makes, with its duration and outcome (the
   * server adds them up for `server-timing`). Also reported to the service's observer. Must not throw.
   */
  onProviderCall?: ProviderCallSink;
  /** Called when the operation first resumed its paused runtime (auto-resume), with how long that took. Must not throw. */
  onResume?: (durationMs: number) => void;
}

/** Per-call options of the state-changing operations that honour an Idempotency-Key. */
export interface OperationOptions extends CallOptions {
  /**
   * The caller's in-flight Idempotency-Key claim. The operation commits it as completed, with
   * its result as the response body, in the same store commit as the state it changed.
   */
  idempotency?: IdempotencyRecord;
}

/** Hooks for metrics and tracing. They must not throw. */
export interface RuntimeServiceObserver {
  providerCall?(event: ProviderCallEvent): void;
  operation?(event: OperationEvent): void;
  /** A restored workspace (checkout, fork, resume) was compared with its checkpoint's manifest. */
  restoreVerification?(event: RestoreVerificationEvent): void;
}

export interface RuntimeServiceOptions {
  store: RuntimeStore;
  providers: ProviderRegistry | BackendProviderV1[];
  /** Provider used by `open` when the request names none. */
  defaultProvider: string;
  /**
   * Ownership label put on provider resources (reconciliation finds its own by it): this node's
   * candidate for the fleet's installation id; the id the store already holds wins (`start()`).
   */
  installationId?: string;
  /** This node of the fleet. Defaults: a random node id, leases of 15 s, no advertised URL. */
  node?: { nodeId: string; leaseMs: number; advertiseUrl?: string | null; version?: string };
  clock?: () => number;
  ids?: IdGenerator;
  timeouts?: Partial<{ controlMs: number; operationMs: number; execGraceMs: number }>;
  exec?: Partial<ExecSettings>;
  files?: Partial<FileSettings>;
  /** N-way checkout and fork: `parallelism` (default 8) bounds the provider creates in flight at once. */
  checkout?: Partial<CheckoutSettings>;
  /** The event log: events older than `retentionMs` (default 7 days) are pruned by the maintenance lease holder. */
  events?: { retentionMs?: number };
  /**
   * Snapshot retention (retention-policy.ts): the daemon's policy (default: none) and how often
   * every node runs the policy passes (TTL closes, idle pauses, retention; default 60 s) between
   * `start()` and `stop()`. Runtimes may override the policy.
   */
  retention?: Partial<RetentionPolicy> & { intervalMs?: number };
  /** TTLs: whether a runtime closed because it expired keeps its snapshots (default false). */
  expiry?: { keepSnapshots?: boolean };
  /**
   * Idle auto-pause and auto-resume (idle/idle-settings.ts): the daemon's `pauseAfterMs` (default
   * none) and `autoResume` (default false). Runtimes may override both.
   */
  idle?: { pauseAfterMs?: number | null; autoResume?: boolean };
  observer?: RuntimeServiceObserver;
  /** Restore verification for runtimes without their own `verify` (default `auto`: each provider's default). */
  restores?: { verify?: VerifyRestoresMode };
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_TIMEOUTS = { controlMs: 120_000, operationMs: 60_000, execGraceMs: 30_000 };
const DEFAULT_EXEC: ExecSettings = { defaultTimeoutMs: 300_000, maxOutputBytes: 1024 * 1024 };
const DEFAULT_FILES: FileSettings = { readMaxBytes: 8 * 1024 * 1024 };
const DEFAULT_EVENT_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * The runtime control plane: open, query and update runtimes, operate on their backends, and
 * checkpoint / check out / pause / resume / close them, by runtime_id and checkpoint_id only.
 * Requests and results are the wire shapes of `@runtimectl/core`'s schemas (already validated).
 */
export class RuntimeService {
  readonly #ctx: ServiceContext;
  readonly #observer: RuntimeServiceObserver;
  #installationId: string;
  readonly #installationCandidate: string;
  readonly #membership: FleetMembership;
  readonly #keepAlive = new KeepAliveDuty();
  readonly #eventSignal = new EventSignal();
  readonly #eventRetentionMs: number;
  readonly #policies: PolicySchedule;
  #starting: Promise<void> | undefined;

  constructor(options: RuntimeServiceOptions) {
    const registry = options.providers instanceof ProviderRegistry ? options.providers : new ProviderRegistry(options.providers);
    registry.get(options.defaultProvider);
    const clock = options.clock ?? Date.now;
    const ids = options.ids ?? createIdGenerator(clock);
    this.#observer = options.observer ?? {};
    this.#eventRetentionMs = options.events?.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    if (!Number.isSafeInteger(this.#eventRetentionMs) || this.#eventRetentionMs <= 0) throw new TypeError(`events.retentionMs must be a positive integer, got ${this.#eventRetentionMs}`);
    this.#installationCandidate = options.installationId ?? 'runtimectl';
    this.#installationId = this.#installationCandidate;
    const node: NodeIdentity = {
      nodeId: options.node?.nodeId ?? randomNodeId(),
      leaseMs: options.node?.leaseMs ?? DEFAULT_LEASE_MS,
      advertiseUrl: options.node?.advertiseUrl ?? null,
      version: options.node?.version ?? 'unknown',
    };
    const leases = new RuntimeLeases(options.store, node.nodeId, node.leaseMs);
    const guard = new SnapshotGuard(leases);
    const calls = new ProviderCalls((event) => this.#observer.providerCall?.(event));
    const backends = new BackendManager({
      registry,
      store: options.store,
      calls,
      guard,
      ids,
      clock,
      timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      installationId: () => this.#installationId,
      nodeId: node.nodeId,
    });
    this.#membership = new FleetMembership(
      options.store,
      node,
      leases,
      () => this.maintain(),
      (holder) => this.#keepAlive.pass(this.#ctx, holder),
    );
    this.#ctx = {
      store: this.#eventSignal.watching(options.store),
      registry,
      backends,
      leases,
      node,
      guard,
      ids,
      clock,
      defaultProvider: options.defaultProvider,
      exec: { ...DEFAULT_EXEC, ...options.exec },
      files: { ...DEFAULT_FILES, ...options.files },
      checkout: checkoutSettingsOf(options.checkout),
      retention: retentionSettingsOf(options.retention),
      expiry: { keepSnapshots: options.expiry?.keepSnapshots ?? false },
      idle: idleSettingsOf(options.idle),
      activity: new IdleActivity(),
      autoResumes: new AutoResumes(),
      restores: { verify: options.restores?.verify ?? 'auto', observe: (event) => this.#observer.restoreVerification?.(event) },
    };
    this.#policies = new PolicySchedule(this.#ctx.retention.intervalMs, () => this.applyPolicies());
  }

  async providers(): Promise<wire.ProviderListResult> {
    return {
      providers: await Promise.all(
        this.#ctx.registry.list().map(async (provider) => ({
          provider: provider.providerId,
          capabilities: providerCapabilities(provider),
          in_force: await providerSettingsInForce(provider),
        })),
      ),
    };
  }

  /** `openedByKey`: the API key the caller authenticated with, recorded with a new runtime (`opened_by_key`). */
  open(request: wire.RuntimeOpenRequest, options: OperationOptions & { openedByKey?: string } = {}): Promise<wire.RuntimeOpenResult> {
    return this.#run('open', (ctx, scope) => openRuntime(ctx, request, scope, options.openedByKey), options);
  }

  get(runtimeId: string): Promise<wire.RuntimeDetail> {
    return this.#run('get', (ctx) => queries.getRuntime(ctx, runtimeId));
  }

  list(query: wire.RuntimeListQuery = {}): Promise<wire.RuntimeListResult> {
    return this.#run('list', (ctx) => queries.listRuntimes(ctx, query));
  }

  update(request: wire.RuntimeUpdateRequest, options: OperationOptions = {}): Promise<wire.RuntimeUpdateResult> {
    return this.#run('update', (ctx, scope) => queries.updateRuntime(ctx, request, scope), options);
  }

  exec(request: wire.RuntimeExecRequest, options: CallOptions = {}): Promise<wire.RuntimeExecResult> {
    return this.#run('exec', (ctx, scope) => data.execRuntime(ctx, request, scope), options);
  }

  /** A runtime's live file (`runtime_id`), or a checkpoint's, read from its snapshot without restoring it (`checkpoint_id`). */
  readFile(request: wire.RuntimeReadFileRequest, options: CallOptions = {}): Promise<wire.RuntimeReadFileResult> {
    return this.#run(
      'read_file',
      (ctx, scope) =>
        request.checkpoint_id !== undefined
          ? readCheckpointFile(ctx, { checkpoint_id: request.checkpoint_id, path: request.path }, scope)
          : data.readRuntimeFile(ctx, { runtime_id: request.runtime_id!, path: request.path }, scope),
      options,
    );
  }

  writeFile(request: wire.RuntimeWriteFileRequest, options: CallOptions = {}): Promise<wire.RuntimeWriteFileResult> {
    return this.#run('write_file', (ctx, scope) => data.writeRuntimeFile(ctx, request, scope), options);
  }

  stat(request: wire.RuntimePathRequest, options: CallOptions = {}): Promise<wire.RuntimeStatResult> {
    return this.#run('stat', (ctx, scope) => data.statRuntimePath(ctx, request, scope), options);
  }

  mkdir(request: wire.RuntimePathRequest, options: CallOptions = {}): Promise<wire.RuntimeMkdirResult> {
    return this.#run('mkdir', (ctx, scope) => data.makeRuntimeDirectory(ctx, request, scope), options);
  }

  tempPath(request: wire.RuntimeTempPathRequest, options: CallOptions = {}): Promise<wire.RuntimeTempPathResult> {
    return this.#run('temp_path', (ctx, scope) => data.makeRuntimeTempPath(ctx, request, scope), options);
  }

  search(request: wire.RuntimeSearchRequest, options: CallOptions = {}): Promise<wire.RuntimeSearchResult> {
    return this.#run('search', (ctx, scope) => data.searchRuntime(ctx, request, scope), options);
  }

  export(request: wire.RuntimeExportRequest, options: CallOptions = {}): Promise<ExportedFile> {
    return this.#run('export', (ctx, scope) => data.exportRuntimeFile(ctx, request, scope), options);
  }

  checkpoint(request: wire.RuntimeCheckpointRequest, options: OperationOptions = {}): Promise<wire.RuntimeCheckpointResult> {
    return this.#run('checkpoint', (ctx, scope) => checkpointRuntime(ctx, request, scope), options);
  }

  listCheckpoints(runtimeId: string, query: wire.CheckpointListQuery = {}): Promise<wire.CheckpointListResult> {
    return this.#run('list_checkpoints', (ctx) => queries.listCheckpoints(ctx, runtimeId, query));
  }

  getCheckpoint(checkpointId: string): Promise<wire.CheckpointView> {
    return this.#run('get_checkpoint', (ctx) => queries.getCheckpoint(ctx, checkpointId));
  }

  /** One directory of a checkpoint from its content manifest, without restoring it (`manifest_unavailable` without one). */
  checkpointTree(checkpointId: string, query: wire.CheckpointTreeQuery = {}): Promise<wire.CheckpointTreeResult> {
    return this.#run('checkpoint_tree', (ctx) => listCheckpointTree(ctx, checkpointId, query));
  }

  /**
   * The changed paths between a checkpoint's content manifest and another checkpoint's, or a
   * runtime's live workspace (a data operation on it). `manifest_unavailable` when a side has none.
   */
  diff(request: wire.CheckpointDiffRequest, options: CallOptions = {}): Promise<wire.CheckpointDiffResult> {
    return this.#run('diff', (ctx, scope) => diffCheckpoints(ctx, request, scope), options);
  }

  /**
   * Checks a checkpoint out: without `count` one child (the single shape); with `count`, that many
   * children answered one result each, every child succeeding or failing on its own.
   */
  checkout(request: wire.RuntimeCheckoutRequest & { count?: undefined }, options?: OperationOptions): Promise<wire.RuntimeCheckoutResult>;
  checkout(request: wire.RuntimeCheckoutRequest & { count: number }, options?: OperationOptions): Promise<wire.RuntimeCheckoutChildrenResult>;
  checkout(
    request: wire.RuntimeCheckoutRequest,
    options?: OperationOptions,
  ): Promise<wire.RuntimeCheckoutResult | wire.RuntimeCheckoutChildrenResult>;
  checkout(
    request: wire.RuntimeCheckoutRequest,
    options: OperationOptions = {},
  ): Promise<wire.RuntimeCheckoutResult | wire.RuntimeCheckoutChildrenResult> {
    const { count } = request;
    if (count === undefined) return this.#run('checkout', (ctx, scope) => checkoutRuntime(ctx, request, scope), options);
    return this.#run('checkout', (ctx, scope) => checkoutChildren(ctx, { ...request, count }, scope), options);
  }

  /** Fork N: checkpoints the runtime once and checks that checkpoint out `count` ways (default 1). */
  forkRuntime(request: wire.RuntimeForkRequest, options: OperationOptions = {}): Promise<wire.RuntimeForkResult> {
    return this.#run('fork', (ctx, scope) => forkRuntimeChildren(ctx, request, scope), options);
  }

  pause(request: wire.RuntimePauseRequest, options: OperationOptions = {}): Promise<wire.RuntimePauseResult> {
    return this.#run('pause', (ctx, scope) => pauseRuntime(ctx, request, scope), options);
  }

  resume(request: wire.RuntimeResumeRequest, options: OperationOptions = {}): Promise<wire.RuntimeResumeResult> {
    return this.#run('resume', (ctx, scope) => resumeRuntime(ctx, request, scope), options);
  }

  close(request: wire.RuntimeCloseRequest, options: CallOptions = {}): Promise<wire.RuntimeCloseResult> {
    return this.#run('close', (ctx, scope) => closeRuntime(ctx, request, scope), options);
  }

  deleteCheckpointSnapshot(
    request: wire.RuntimeCheckpointSnapshotDeleteRequest,
    options: CallOptions = {},
  ): Promise<wire.RuntimeCheckpointSnapshotDeleteResult> {
    return this.#run('delete_snapshot', (ctx, scope) => deleteCheckpointSnapshot(ctx, request, scope), options);
  }

  /** Compatibility: checkpoint → checkout in one call (no HTTP route). */
  fork(request: wire.SessionForkRequest): Promise<wire.SessionForkResult> {
    return this.#run('fork', (ctx, scope) => forkRuntime(ctx, request, scope));
  }

  /** A page of the event log after `query.after` (oldest first), and the last id appended so far. */
  async listEvents(query: wire.EventListQuery): Promise<wire.EventListResult> {
    return listEvents(this.#ctx, query);
  }

  /**
   * Resolves when this node commits events, after `timeoutMs` at the latest (another node's
   * events are seen by reading again), or when `abort` fires: an event stream's wait.
   */
  eventsAppended(timeoutMs: number, abort?: AbortSignal): Promise<void> {
    return this.#eventSignal.next(timeoutMs, abort);
  }

  /** Runtimes per public status; `running` counts idle runtimes with an operation in flight. */
  async runtimeCounts(): Promise<Record<wire.RuntimeStatus, number>> {
    const stored = await this.#ctx.store.countSessionsByStatus();
    const busy = await this.#ctx.leases.busyRuntimeIds();
    const held = await Promise.all([...busy].map((id) => this.#ctx.store.getSession(id)));
    const running = held.filter((session) => session?.status === 'idle').length;
    return { ...stored, idle: stored.idle - running, running };
  }

  /**
   * Joins the fleet (call before serving; `reconcile()` does): takes the fleet's installation id
   * from the store (this node's candidate when it holds none yet), registers this node and
   * starts its heartbeat and its policy passes (every `retention.intervalMs`). Idempotent until `stop()`.
   */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      this.#installationId = await this.#ctx.store.claimInstallationId(this.#installationCandidate);
      await this.#membership.start();
      this.#policies.start();
    })().catch((error: unknown) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  /**
   * Leaves the fleet: stops the policy passes and the heartbeat (this node reads as dead after
   * the lease time) and gives the maintenance lease up.
   */
  async stop(): Promise<void> {
    this.#starting = undefined;
    this.#policies.stop();
    await this.#membership.stop();
  }

  /**
   * Start-up reconciliation (call before serving; starts the node first): releases and deletes
   * provider resources of this installation that no record accounts for, marks runtimes whose
   * backend vanished failed, and resolves intents this node's previous process left open. In a
   * fleet only the maintenance lease holder sweeps fleet-wide providers (fleet/maintenance.ts).
   */
  async reconcile(): Promise<ReconcileReport> {
    await this.start();
    return this.#run('reconcile', (ctx) => reconcileAtStart(ctx, this.#installationId, this.#membership));
  }

  /**
   * The fleet's periodic upkeep (the heartbeat runs it every few beats): on the maintenance
   * lease holder, takes over the intents of dead nodes and sweeps. null when there was nothing to
   * do here. (The policy passes have their own timer: `applyPolicies`.)
   */
  async maintain(): Promise<ReconcileReport | null> {
    const report = await this.#run('maintain', (ctx) => maintainFleet(ctx, this.#installationId, this.#membership));
    // One node prunes the event log and the webhook delivery log (same retention): the holder
    // (whose lease maintainFleet has just checked).
    if (await this.#membership.holdsMaintenance()) {
      const beforeMs = this.#ctx.clock() - this.#eventRetentionMs;
      await this.#ctx.store.pruneEvents(beforeMs);
      await this.#ctx.store.pruneWebhookDeliveries(beforeMs);
    }
    return report;
  }

  /**
   * The policy passes now, as every node runs them every `retention.intervalMs` (from `start()`
   * to `stop()`, fleet/policy-schedule.ts): closes the
   * runtimes whose TTL passed, flushes this node's record of operations and pauses the idle
   * runtimes, then applies retention — each to the runtimes this node acts for
   * (fleet/policy-scope.ts: a runtime's home node, or the maintenance holder for the others), so
   * every action happens once across a fleet. `holdsMaintenance` defaults to asking the fleet.
   */
  async applyPolicies(holdsMaintenance?: boolean): Promise<{ expiry: ExpiryPassReport; idle: IdlePassReport; retention: RetentionPassReport }> {
    const holder = holdsMaintenance ?? (await this.#membership.holdsMaintenance());
    // One operation per pass for the metrics (`expiry`, `idle_pause`, `retention`): each pass's daemon time on its own.
    const expiry = await this.#run('expiry', async (ctx) => closeExpired(ctx, await readAllSessions(ctx), await policyScope(ctx, holder)));
    const idle = await this.#run('idle_pause', async (ctx) => {
      await flushActivity(ctx);
      return pauseIdle(ctx, await readAllSessions(ctx), await policyScope(ctx, holder));
    });
    const retention = await this.#run('retention', async (ctx) => applyRetention(ctx, await policyScope(ctx, holder)));
    return { expiry, idle, retention };
  }

  /** One retention pass now over every runtime (tests and operators; the policy passes run it on their own). */
  applyRetention(): Promise<RetentionPassReport> {
    return this.#run('retention', (ctx) => applyRetention(ctx, () => true));
  }

  /** What a retention pass would delete now, and why each checkpoint's snapshot is kept or deleted. */
  retentionPreview(query: wire.RetentionPreviewQuery): Promise<wire.RetentionPreviewResult> {
    return this.#run('retention_preview', (ctx) => previewRetention(ctx, query));
  }

  /** Pins a checkpoint (no retention policy deletes its snapshot) or unpins it: a control operation on its runtime. */
  pinCheckpoint(request: wire.CheckpointPinRequest, options: OperationOptions = {}): Promise<wire.CheckpointPinResult> {
    return this.#run('pin_checkpoint', (ctx, scope) => pinCheckpoint(ctx, request, scope), options);
  }

  /**
   * The keep-alive duty (the heartbeat runs it every beat): tells each provider with `keepAlive`
   * which backends this node keeps alive — every live runtime's on the maintenance lease holder,
   * only the ones it just made or attached elsewhere (fleet/keep-alive-duty.ts).
   */
  async keepAlive(): Promise<void> {
    const holder = await this.#membership.holdsMaintenance();
    await this.#keepAlive.pass(this.#ctx, holder);
  }

  /** How many backends this node keeps alive (as of its last keep-alive pass). */
  keptAliveBackends(): number {
    return this.#keepAlive.keptAlive;
  }

  /** Every node of the fleet: alive or not, and how many runtimes it is home of (one count query in the store). */
  nodes(): Promise<FleetNode[]> {
    return this.#run('nodes', (ctx) => listFleetNodes(ctx));
  }

  /** Every node of the fleet and whether it is alive, without counting runtimes: what a request may ask. */
  nodeStates(): Promise<NodeState[]> {
    return this.#run('nodes', async (ctx) => [...(await nodeLiveness(ctx.store, ctx.node.leaseMs)).values()]);
  }

  /** This node's id. */
  get nodeId(): string {
    return this.#ctx.node.nodeId;
  }

  /** Ids of backends live in this process (invariant checks, metrics). */
  liveBackendIds(): string[] {
    return this.#ctx.backends.liveBackendIds();
  }

  async #run<T>(
    operation: string,
    fn: (ctx: ServiceContext, scope: OperationScope) => Promise<T>,
    options: OperationOptions = {},
  ): Promise<T> {
    const scope: OperationScope = { providerId: null, idempotency: options.idempotency, onResume: options.onResume };
    // A caller that wants this operation's provider calls gets a view of the backends that reports them.
    const ctx = options.onProviderCall ? { ...this.#ctx, backends: this.#ctx.backends.reportingTo(options.onProviderCall) } : this.#ctx;
    const startedAt = performance.now();
    let outcome = 'ok';
    try {
      return await fn(ctx, scope);
    } catch (error) {
      outcome = RuntimectlError.isInstance(error) ? error.code : 'internal';
      throw error;
    } finally {
      this.#observer.operation?.({ operation, providerId: scope.providerId, outcome, durationMs: performance.now() - startedAt });
    }
  }
}
