import {
  BackendGoneError,
  ProviderSnapshotNotFoundError,
  SnapshotInUseError,
  type BackendAttachRequest,
  type BackendCheckoutRequest,
  type BackendCreateRequest,
  type BackendProviderV1,
  type BackendResource,
  type BackendSnapshotRequest,
  type OwnedResources,
  type ProviderBackend,
  type ProviderSnapshot,
} from '@runtimectl/provider';
import { Sandbox, SandboxError, SandboxNotFoundError, type SandboxOpts } from 'e2b';
import type { z } from 'zod';
import { E2BBackend, type BackendContext, type SandboxState } from './e2b-backend';
import { E2BErrorMapper, outcomeUnknown, PROVIDER_ID, SANDBOX_GONE_MESSAGE, sandboxGoneError } from './e2b-errors';
import { resolveE2BSettings, type E2BProviderSettings, type ResolvedE2BSettings } from './e2b-settings';
import { OrphanSweeper } from './orphan-sweeper';
import { listOwnedResources } from './owned-resources';
import { sdkCaller, withDeadline, type SdkCaller } from './request-deadline';
import { runtimeOptionsOf, runtimeOptionsSchemaWith, type E2BRuntimeOptions } from './runtime-options';
import { sandboxOf, TIMEOUT_LABEL, type SandboxResource } from './sandbox-resource';
import { SandboxKeepAlive, type RefreshOutcome } from './sandbox-keep-alive';
import { snapshotNameFor } from './snapshot-names';

/**
 * The E2B provider: every backend is an E2B sandbox, made and driven with the official `e2b`
 * SDK. Snapshots are E2B snapshots, so runtimes on it can be checkpointed, checked out, paused
 * (core: snapshot or reuse, then kill — never E2B's own pause) and resumed. Sandboxes carry
 * core's ownership labels as metadata and snapshots a name made from them, so
 * `listOwnedResources` finds exactly this installation's. While a backend is live its sandbox's
 * timeout is refreshed; a sandbox found gone turns every later call into `BackendGoneError`.
 */
export class E2BProvider implements BackendProviderV1 {
  readonly specificationVersion = 'backend-provider-v1' as const;
  readonly providerId = PROVIDER_ID;
  readonly runtimeOptionsSchema: z.ZodType<E2BRuntimeOptions>;
  /** Every node of a fleet reaches a sandbox by its id: its runtimes have no home node. */
  readonly locality = 'fleet' as const;
  /** An E2B snapshot holds the sandbox's memory and processes, not only its files. */
  readonly snapshotKind = 'memory' as const;
  /**
   * Opt-in, though a check costs within 10% of a sandbox create (bench `verify-restores`): the
   * sandbox's processes keep running across a snapshot, so a job writing files between the
   * snapshot and its manifest (or between a restore and its check) fails a restore that lost
   * nothing (test: runtime-semantics "background job").
   */
  readonly restoreVerification = 'opt_in' as const;

  readonly #settings: ResolvedE2BSettings;
  readonly #errors: E2BErrorMapper;
  readonly #keepAlive: SandboxKeepAlive;
  readonly #sweeper: OrphanSweeper;
  readonly #context: BackendContext;
  /** Every control-plane call goes through this: connection options plus a deadline of our own. */
  readonly #api: SdkCaller;

  constructor(settings: E2BProviderSettings) {
    this.#settings = resolveE2BSettings(settings);
    this.runtimeOptionsSchema = runtimeOptionsSchemaWith(this.#settings.minSandboxTimeoutMs);
    this.#errors = new E2BErrorMapper(this.#settings.apiKey, this.#settings.requestTimeoutMs, this.#settings.workspaceRoot);
    this.#keepAlive = new SandboxKeepAlive({ refresh: (id, timeoutMs) => this.#refresh(id, timeoutMs), goneMessage: SANDBOX_GONE_MESSAGE });
    this.#api = sdkCaller(this.#settings.connection, this.#settings.requestTimeoutMs);
    this.#sweeper = new OrphanSweeper(this.#api);
    this.#context = {
      settings: this.#settings,
      errors: this.#errors,
      keepAlive: this.#keepAlive,
      sandboxState: (sandboxId) => this.#sandboxState(sandboxId),
    };
  }

  /**
   * `Sandbox.create(template, {metadata: labels, timeoutMs, envs})`, then creates the workspace
   * directory (a sandbox whose workspace could not be made is killed). The caller owns the
   * sandbox and must `release` it.
   */
  async create(request: BackendCreateRequest): Promise<ProviderBackend> {
    const options = runtimeOptionsOf(request.options, this.runtimeOptionsSchema);
    const sandbox = await this.#createSandbox('create', options.template ?? this.#settings.template, request, options);
    try {
      await withDeadline(this.#settings.requestTimeoutMs, (signal) => sandbox.files.makeDir(this.#settings.workspaceRoot, { signal, user: this.#settings.user }));
    } catch (error) {
      await this.#api((options) => Sandbox.kill(sandbox.sandboxId, options)).catch(() => {});
      throw this.#errors.map(error, { call: 'create', sandboxId: sandbox.sandboxId });
    }
    return this.#backend(sandbox, options);
  }

  /** `Sandbox.connect(sandboxId)`; `BackendGoneError` when E2B no longer has the sandbox. */
  async attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    const resource = sandboxOf(request.resource);
    if (!resource) throw new BackendGoneError(PROVIDER_ID, 'attach', 'the resource names no E2B sandbox');
    const timeoutMs = resource.timeoutMs ?? this.#settings.sandboxTimeoutMs;
    try {
      const sandbox = await this.#api((options) => Sandbox.connect(resource.sandboxId, { ...options, timeoutMs }));
      this.#keepAlive.track(resource.sandboxId, timeoutMs);
      return new E2BBackend(sandbox, resource, this.#context);
    } catch (error) {
      if (error instanceof SandboxNotFoundError) this.#keepAlive.markGone(resource.sandboxId);
      throw this.#errors.map(error, { call: 'attach', sandboxId: resource.sandboxId });
    }
  }

  /** Kills the sandbox and stops refreshing it. Idempotent: an unknown or already-killed sandbox counts as done. */
  async release(request: BackendAttachRequest): Promise<void> {
    const resource = sandboxOf(request.resource);
    if (!resource) return;
    try {
      await this.#api((options) => Sandbox.kill(resource.sandboxId, options));
    } catch (error) {
      throw this.#errors.map(error, { call: 'release', sandboxId: resource.sandboxId });
    }
    this.#keepAlive.released(resource.sandboxId);
  }

  /**
   * `Sandbox.createSnapshot(sandboxId, {name})`, the name made from the ownership labels (never
   * the caller's checkpoint name, which is not unique). The snapshot outlives the sandbox.
   */
  async checkpoint(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<ProviderSnapshot> {
    const resource = sandboxOf(backend.resource);
    if (!resource) throw new BackendGoneError(PROVIDER_ID, 'checkpoint', 'the backend names no E2B sandbox');
    const gone = this.#keepAlive.goneReason(resource.sandboxId);
    if (gone !== undefined) throw sandboxGoneError('checkpoint', resource.sandboxId, gone);
    const name = snapshotNameFor(request.labels);
    const resume = this.#keepAlive.suspend(resource.sandboxId);
    try {
      const snapshot = await this.#api((options) => Sandbox.createSnapshot(resource.sandboxId, { ...options, ...(name ? { name } : {}) }));
      return { snapshotId: snapshot.snapshotId, names: snapshot.names };
    } catch (error) {
      if (error instanceof SandboxNotFoundError) this.#keepAlive.markGone(resource.sandboxId);
      if (name && outcomeUnknown(error)) this.#sweeper.snapshotNamed(name);
      throw this.#errors.map(error, { call: 'checkpoint', sandboxId: resource.sandboxId });
    } finally {
      resume();
    }
  }

  /**
   * `Sandbox.create(snapshotId, {metadata: labels, …})`: a new sandbox starting from the snapshot.
   * E2B answers 404 ("template not found") when the snapshot no longer exists (deleted behind the
   * daemon's back): `ProviderSnapshotNotFoundError`, so core answers checkpoint_snapshot_deleted.
   */
  async checkout(request: BackendCheckoutRequest): Promise<ProviderBackend> {
    const options = runtimeOptionsOf(request.options, this.runtimeOptionsSchema);
    return this.#backend(await this.#createSandbox('checkout', request.snapshotId, request, options), options);
  }

  /**
   * `Sandbox.deleteSnapshot`: deleted or already gone both resolve. E2B refuses (400) while a
   * sandbox made from the snapshot still runs or is paused: `SnapshotInUseError`.
   */
  async deleteSnapshot(snapshotId: string): Promise<{ deleted: boolean }> {
    try {
      return { deleted: await this.#api((options) => Sandbox.deleteSnapshot(snapshotId, options)) };
    } catch (error) {
      if (error instanceof SandboxError && error.statusCode === 400) throw new SnapshotInUseError('this checkpoint', [], 'a sandbox made from it (E2B refuses to delete it)');
      throw this.#errors.map(error, { call: 'delete_snapshot', snapshotId });
    }
  }

  /** Sandboxes with `installationId`'s metadata and snapshots with its name prefix, every page of both. */
  async listOwnedResources(installationId: string): Promise<OwnedResources> {
    try {
      return await listOwnedResources(this.#api, installationId);
    } catch (error) {
      throw this.#errors.map(error, { call: 'list_owned_resources' });
    }
  }

  /**
   * The fleet's keep-alive duty (see `BackendProviderV1.keepAlive`): from now on refreshes exactly
   * these sandboxes, each with its runtime's own timeout or `sandboxTimeoutMs`. A sandbox new to
   * this process is refreshed at once; one left out is no longer refreshed here, neither killed
   * nor marked gone, and its handles stay usable. Resources naming no E2B sandbox are ignored.
   */
  keepAlive(resources: readonly BackendResource[]): void {
    const wanted = new Map<string, number>();
    for (const resource of resources) {
      const sandbox = sandboxOf(resource);
      if (sandbox) wanted.set(sandbox.sandboxId, sandbox.timeoutMs ?? this.#settings.sandboxTimeoutMs);
    }
    this.#keepAlive.keepOnly(wanted);
  }

  /** Sandboxes whose timeout is being refreshed here (live backends of this process, or the fleet's duty). */
  keptAliveSandboxIds(): string[] {
    return this.#keepAlive.trackedSandboxIds();
  }

  /** Stops every keep-alive and pending sweep; sandboxes are left as they are (they lapse at their timeout). */
  dispose(): void {
    this.#keepAlive.stopAll();
    this.#sweeper.stop();
  }

  async #createSandbox(call: string, template: string, request: BackendCreateRequest, options: E2BRuntimeOptions): Promise<Sandbox> {
    const timeoutMs = options.timeout_ms ?? this.#settings.sandboxTimeoutMs;
    const metadata = { ...request.labels, ...(options.timeout_ms !== undefined ? { [TIMEOUT_LABEL]: String(options.timeout_ms) } : {}) };
    const sandboxOptions: SandboxOpts = { metadata, timeoutMs, ...(options.envs !== undefined ? { envs: options.envs } : {}) };
    try {
      return await this.#api((connection) => Sandbox.create(template, { ...connection, ...sandboxOptions }));
    } catch (error) {
      if (request.labels.runtimectl_backend_id === request.backendId && outcomeUnknown(error)) this.#sweeper.sandboxOf(request.backendId);
      if (call === 'checkout' && error instanceof SandboxError && error.statusCode === 404) {
        throw new ProviderSnapshotNotFoundError(PROVIDER_ID, call, 'E2B no longer has the snapshot (template not found)', this.#errors.cause(error));
      }
      throw this.#errors.map(error, call === 'checkout' ? { call, snapshotId: template } : { call, templateId: template });
    }
  }

  #backend(sandbox: Sandbox, options: E2BRuntimeOptions): E2BBackend {
    const resource: SandboxResource = { sandboxId: sandbox.sandboxId, ...(options.timeout_ms !== undefined ? { timeoutMs: options.timeout_ms } : {}) };
    this.#keepAlive.track(sandbox.sandboxId, options.timeout_ms ?? this.#settings.sandboxTimeoutMs);
    return new E2BBackend(sandbox, resource, this.#context);
  }

  /** One keep-alive refresh. E2B answers 404 for a paused sandbox too, so a 404 is confirmed with getInfo. */
  async #refresh(sandboxId: string, timeoutMs: number): Promise<RefreshOutcome> {
    try {
      await this.#api((options) => Sandbox.setTimeout(sandboxId, timeoutMs, options));
      return 'alive';
    } catch (error) {
      if (!(error instanceof SandboxNotFoundError)) return 'unknown';
      return (await this.#sandboxState(sandboxId)) === 'gone' ? 'gone' : 'unknown';
    }
  }

  /** What E2B says of the sandbox: `gone` when it does not exist; undefined when it could not be asked. */
  async #sandboxState(sandboxId: string): Promise<SandboxState | undefined> {
    try {
      const info = await this.#api((options) => Sandbox.getInfo(sandboxId, options));
      return info.state === 'paused' ? 'paused' : 'running';
    } catch (error) {
      return error instanceof SandboxNotFoundError ? 'gone' : undefined;
    }
  }
}

/**
 * Creates the E2B provider. Throws `TypeError` naming the setting (or the environment variable)
 * when the API key is missing or a setting is out of range; the key itself is never in a message.
 */
export function createE2BProvider(settings: E2BProviderSettings = {}): E2BProvider {
  return new E2BProvider(settings);
}
