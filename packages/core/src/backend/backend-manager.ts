import { ProviderTimeoutError, UnsupportedBackendError, type BackendProviderV1, type BackendResource, type ProviderSnapshot, type ProviderBackend, type ManifestDelta, type ManifestEntry, type SkippedPath } from '@runtimectl/provider';
import type { ProviderRegistry } from '../provider/provider-registry';
import type { BackendBinding, BackendCheckpointRef, ProviderIntent } from '../store/records';
import { immutableCopy } from '../store/immutable-record';
import type { RuntimeStore } from '../store/runtime-store';
import type { IdGenerator } from '../runtime/ids';
import { LastSnapshot } from './last-snapshot';
import { MutationsInFlight } from './mutations-in-flight';
import type { ProviderCallSink, ProviderCalls } from './provider-calls';
import type { OperationLeases, SnapshotGuard } from './snapshot-guard';
import { TrackedBackend, type TrackedBackendTimeouts } from './tracked-backend';

export interface BackendManagerTimeouts extends TrackedBackendTimeouts {
  /** Deadline of create, attach, release, checkpoint, checkout, deleteSnapshot (and a manifest: see TrackedBackend). */
  controlMs: number;
}

export interface BackendManagerOptions {
  registry: ProviderRegistry;
  /** Bindings (for reference counts) are read from it; intents are written to it. */
  store: RuntimeStore;
  calls: ProviderCalls;
  guard: SnapshotGuard;
  ids: IdGenerator;
  clock: () => number;
  timeouts: BackendManagerTimeouts;
  /**
   * Ownership label put on every provider resource, so reconciliation can find its own: the
   * fleet's installation id once the service has claimed it in the store.
   */
  installationId: () => string;
  /** This node: recorded on every intent, so a dead node's are taken over by a live one. */
  nodeId: string;
}

export interface BackendCheckpointOutcome {
  ref: BackendCheckpointRef;
  /** true when the clean backend's previous ref was reused and the provider was not called. */
  reused: boolean;
  /** What the new provider snapshot does not hold (special files); none when reused. */
  skipped: SkippedPath[];
  /** The new snapshot's content manifest when the provider gave it (`ProviderSnapshot.manifest`); else null. */
  manifest: ManifestEntry[] | null;
  /** What changed since an earlier snapshot, when the provider gave that instead (`ProviderSnapshot.manifestDelta`); else null. */
  manifestDelta: ManifestDelta | null;
}

/**
 * Owns the live provider backends: creates them (fresh or from a snapshot), re-attaches them
 * lazily after a restart, reuses a clean runtime's snapshot, and releases a
 * backend only when no runtime remains bound to it (the store is the source of the bindings).
 *
 * Every provider call that creates something is preceded by an intent in the store (its id is
 * the backend id, or the ref id for a snapshot). The caller resolves it in the commit that
 * records the result; a call that failed resolves it here; one that timed out is resolved when
 * its late result has been released. Whatever a crash leaves open, reconciliation sweeps.
 */
export class BackendManager {
  /** Live backends (made with `options.calls`) and attaches in flight: shared by every view. */
  readonly #live: Map<string, TrackedBackend>;
  readonly #attaching: Map<string, Promise<TrackedBackend>>;
  /** Where this view makes its provider calls: `options.calls`, or it plus an operation's sink. */
  readonly #calls: ProviderCalls;
  /**
   * The store without any operation's fence: what a late result's cleanup resolves its intent
   * in, since it ends after the operation released its lease.
   */
  readonly #unfencedStore: RuntimeStore;

  constructor(
    private readonly options: BackendManagerOptions,
    shared?: {
      live: Map<string, TrackedBackend>;
      attaching: Map<string, Promise<TrackedBackend>>;
      calls: ProviderCalls;
      unfencedStore: RuntimeStore;
    },
  ) {
    this.#live = shared?.live ?? new Map();
    this.#attaching = shared?.attaching ?? new Map();
    this.#calls = shared?.calls ?? options.calls;
    this.#unfencedStore = shared?.unfencedStore ?? options.store;
  }

  /**
   * A view of the same backends whose provider calls are also reported to `sink`: what one
   * operation uses to learn its own provider time (no AsyncLocalStorage needed).
   */
  reportingTo(sink: ProviderCallSink): BackendManager {
    return new BackendManager(this.options, { ...this.#shared(), calls: this.#calls.reportingTo(sink) });
  }

  /** A view of the same backends that reads and writes through `store` (an operation's fenced store). */
  withStore(store: RuntimeStore): BackendManager {
    return new BackendManager({ ...this.options, store }, this.#shared());
  }

  #shared() {
    return { live: this.#live, attaching: this.#attaching, calls: this.#calls, unfencedStore: this.#unfencedStore };
  }

  /** Creates a fresh backend for `runtimeId` (nothing of its commands running yet). The caller persists the returned binding. */
  async create(runtimeId: string, providerId: string, providerOptions: Record<string, unknown>): Promise<BackendBinding> {
    const provider = this.options.registry.get(providerId);
    const backendId = this.options.ids.backendId();
    const request = { backendId, runtimeId, options: providerOptions, labels: this.#labels(runtimeId, backendId) };
    const backend = await this.#intended(this.#intent('backend', providerId, runtimeId, backendId, backendId), () =>
      this.#control(provider, 'create', () => provider.create(request), this.#releaseLate(provider, backendId)),
    );
    return { ...this.#register(providerId, backendId, backend, null), nothingRunning: true };
  }

  /**
   * Creates a backend for `runtimeId` from the snapshot in `ref` (checkout and resume). The
   * caller records it clean (its checkpoint as `cleanCheckpointId`), so its first checkpoint reuses `ref`.
   */
  async checkout(
    runtimeId: string,
    ref: BackendCheckpointRef & { providerSnapshotId: string },
    providerOptions: Record<string, unknown>,
  ): Promise<BackendBinding> {
    const provider = this.options.registry.get(ref.providerId);
    if (!provider.checkout) throw new UnsupportedBackendError(provider.providerId, 'checkout');
    const checkout = provider.checkout.bind(provider);
    const backendId = this.options.ids.backendId();
    const request = {
      backendId,
      runtimeId,
      options: providerOptions,
      labels: this.#labels(runtimeId, backendId),
      snapshotId: ref.providerSnapshotId,
    };
    const backend = await this.#intended(this.#intent('backend', ref.providerId, runtimeId, backendId, backendId), () =>
      this.#control(provider, 'checkout', () => checkout(request), this.#releaseLate(provider, backendId)),
    );
    return this.#register(ref.providerId, backendId, backend, ref.providerSnapshotId);
  }

  /**
   * Whether the provider vouches that the backend of `binding`, just restored from `snapshotId`,
   * is exactly that snapshot (`BackendProviderV1.restoredExactly`); false when it has no such proof.
   */
  async restoredExactly(binding: BackendBinding, snapshotId: string): Promise<boolean> {
    const provider = this.options.registry.get(binding.providerId);
    if (!provider.restoredExactly) return false;
    const backend = await this.backendOf(binding);
    return (await this.#control(provider, 'checkout', () => provider.restoredExactly!(backend.inner, snapshotId))) === true;
  }

  /** The live backend behind a binding, re-attaching to the provider resource on first use. */
  async backendOf(binding: BackendBinding): Promise<TrackedBackend> {
    const live = this.#live.get(binding.backendId);
    if (live) return live.withCalls(this.#calls);
    let pending = this.#attaching.get(binding.backendId);
    if (!pending) {
      const provider = this.options.registry.get(binding.providerId);
      const request = { backendId: binding.backendId, resource: binding.resource };
      pending = this.#control(provider, 'attach', () => provider.attach(request))
        .then((backend) => {
          this.#register(binding.providerId, binding.backendId, backend, binding.sourceSnapshotId);
          return this.#live.get(binding.backendId)!;
        })
        .finally(() => this.#attaching.delete(binding.backendId));
      this.#attaching.set(binding.backendId, pending);
    }
    return (await pending).withCalls(this.#calls);
  }

  /**
   * Captures the backend: reuses `clean` (the ref of the checkpoint the store says captures the
   * backend as it is) without a provider call, else counts the backend's background processes
   * and then asks the provider for a snapshot (providers without snapshots get a ref with no
   * provider snapshot id); the count, taken first so that nothing that ran during the snapshot
   * is missed, goes into the ref (`backgroundProcesses`) — not asked of the provider when the
   * binding says nothing can be running (`nothingRunning`). A reused snapshot is leased in
   * `leases` until the caller commits.
   */
  async checkpoint(
    runtimeId: string,
    binding: BackendBinding,
    name: string | undefined,
    leases: OperationLeases,
    clean: BackendCheckpointRef | null,
  ): Promise<BackendCheckpointOutcome> {
    if (clean) {
      const lease = clean.providerSnapshotId ? await this.options.guard.tryLease(clean.providerId, clean.providerSnapshotId) : async () => {};
      if (lease) {
        leases.hold(lease);
        return { ref: clean, reused: true, skipped: [], manifest: null, manifestDelta: null };
      }
    }
    const backend = await this.backendOf(binding);
    const backgroundProcesses = await backend.backgroundProcesses(binding.nothingRunning === true);
    const provider = this.options.registry.get(binding.providerId);
    const refId = this.options.ids.backendCheckpointId();
    const request = {
      labels: { ...this.#labels(runtimeId, binding.backendId), runtimectl_ref_id: refId },
      ...(name === undefined ? {} : { name }),
    };
    const snapshot = provider.checkpoint
      ? await this.#intended(this.#intent('snapshot', binding.providerId, runtimeId, binding.backendId, refId), () =>
          this.#control(provider, 'checkpoint', () => provider.checkpoint!(backend.inner, request), this.#deleteLate(provider, refId)),
        )
      : null;
    // Frozen: every checkpoint that reuses this snapshot shares the one ref.
    const ref: BackendCheckpointRef = immutableCopy({
      refId,
      providerId: binding.providerId,
      sourceBackendId: binding.backendId,
      providerSnapshotId: snapshot?.snapshotId ?? null,
      providerSnapshotNames: snapshot?.names ?? [],
      snapshotDeletedAtMs: null,
      createdAtMs: this.options.clock(),
      backgroundProcesses,
    });
    backend.lastSnapshot.ref = ref;
    if (ref.providerSnapshotId) {
      const lease = await this.options.guard.tryLease(ref.providerId, ref.providerSnapshotId);
      if (lease) leases.hold(lease);
    }
    return { ref, reused: false, skipped: snapshot?.skipped ?? [], manifest: snapshot?.manifest ?? null, manifestDelta: snapshot?.manifestDelta ?? null };
  }

  /** The snapshot ref this process last made of a live backend, if any. */
  lastRefOf(backendId: string): BackendCheckpointRef | null {
    return this.#live.get(backendId)?.lastSnapshot.ref ?? null;
  }

  /**
   * Unbinds `runtimeId` from its backend and releases the provider resource when no other
   * non-closed runtime is bound to it. Resolves true when the provider resource was released.
   * On failure nothing is unbound: the runtime stays usable.
   */
  async release(runtimeId: string, binding: BackendBinding): Promise<boolean> {
    const others = await this.#otherBoundRuntimes(runtimeId, binding.backendId);
    if (others.length > 0) return false;
    const provider = this.options.registry.get(binding.providerId);
    const request = { backendId: binding.backendId, resource: binding.resource };
    await this.#control(provider, 'release', () => provider.release(request));
    this.#live.delete(binding.backendId);
    return true;
  }

  /** Deletes a provider snapshot; false when it was already gone. Live backends forget it. */
  async deleteSnapshot(providerId: string, snapshotId: string): Promise<boolean> {
    const provider = this.options.registry.get(providerId);
    if (!provider.deleteSnapshot) throw new UnsupportedBackendError(providerId, 'delete_snapshot');
    const deleteSnapshot = provider.deleteSnapshot.bind(provider);
    const { deleted } = await this.#control(provider, 'delete_snapshot', () => deleteSnapshot(snapshotId));
    for (const backend of this.#live.values()) {
      if (backend.providerId === providerId) backend.lastSnapshot.forget(snapshotId);
    }
    return deleted;
  }

  /**
   * One file of a provider snapshot, read without restoring it, under the file-operation
   * deadline. `UnsupportedBackendError` when the provider cannot (no `readSnapshotFile`).
   */
  async readSnapshotFile(providerId: string, snapshotId: string, path: string, maxBytes: number): Promise<Uint8Array> {
    const provider = this.options.registry.get(providerId);
    if (!provider.readSnapshotFile) throw new UnsupportedBackendError(providerId, 'read_snapshot_file');
    const read = provider.readSnapshotFile.bind(provider);
    return this.#calls.run(providerId, 'read_snapshot_file', { timeoutMs: this.options.timeouts.operationMs }, () => read(snapshotId, path, { maxBytes }));
  }

  /** Live backend ids (for invariant checks and metrics). */
  liveBackendIds(): string[] {
    return [...this.#live.keys()];
  }

  /** The live backends of this process with their provider and resource (the keep-alive hand-over). */
  liveBackends(): Array<{ backendId: string; providerId: string; resource: BackendResource }> {
    return [...this.#live.entries()].map(([backendId, backend]) => ({ backendId, providerId: backend.providerId, resource: backend.inner.resource }));
  }

  async #otherBoundRuntimes(runtimeId: string, backendId: string): Promise<string[]> {
    const bound = await this.options.store.listSessionsByBackend(backendId);
    return bound
      .filter((session) => session.runtimeId !== runtimeId && session.status !== 'closed')
      .map((session) => session.runtimeId);
  }

  #register(
    providerId: string,
    backendId: string,
    backend: ProviderBackend,
    sourceSnapshotId: string | null,
  ): BackendBinding {
    const tracked = new TrackedBackend(providerId, backend, new LastSnapshot(), new MutationsInFlight(), this.options.calls, this.options.timeouts);
    this.#live.set(backendId, tracked);
    return { backendId, providerId, resource: backend.resource, sourceSnapshotId };
  }

  #intent(kind: ProviderIntent['kind'], providerId: string, runtimeId: string, backendId: string, intentId: string): ProviderIntent {
    return { intentId, kind, providerId, runtimeId, backendId, createdAtMs: this.options.clock(), nodeId: this.options.nodeId };
  }

  /** Records the intent, runs the call, and resolves the intent itself when the call failed. */
  async #intended<T>(intent: ProviderIntent, call: () => Promise<T>): Promise<T> {
    await this.options.store.commit({ intents: [intent] });
    try {
      return await call();
    } catch (error) {
      // A call that timed out may still create its resource: the late-result handler releases
      // it, and reconciliation covers a crash before that.
      if (!ProviderTimeoutError.isInstance(error)) await this.#resolveIntent(intent.intentId);
      throw error;
    }
  }

  async #resolveIntent(intentId: string, store = this.options.store): Promise<void> {
    // Best effort: an intent left open only costs reconciliation a look at start-up.
    await store.commit({ resolvedIntentIds: [intentId] }).catch(() => {});
  }

  #labels(runtimeId: string, backendId: string): Record<string, string> {
    return {
      runtimectl_installation: this.options.installationId(),
      runtimectl_runtime_id: runtimeId,
      runtimectl_backend_id: backendId,
    };
  }

  /** A backend created after its deadline passed is released, then its intent resolved. */
  #releaseLate(provider: BackendProviderV1, backendId: string) {
    return (value: unknown) => {
      const resource = (value as ProviderBackend).resource;
      void provider
        .release({ backendId, resource })
        .then(() => this.#resolveIntent(backendId, this.#unfencedStore))
        .catch(() => {});
    };
  }

  /** A snapshot made after its deadline passed is deleted, then its intent resolved. */
  #deleteLate(provider: BackendProviderV1, refId: string) {
    return (value: unknown) => {
      const { snapshotId } = value as ProviderSnapshot;
      void Promise.resolve(provider.deleteSnapshot?.(snapshotId))
        .then(() => this.#resolveIntent(refId, this.#unfencedStore))
        .catch(() => {});
    };
  }

  /** A control-plane provider call under the deadline; `onLateResult` cleans up what arrives after it. */
  #control<T>(provider: BackendProviderV1, call: string, fn: () => Promise<T>, onLateResult?: (value: unknown) => void): Promise<T> {
    return this.#calls.run(
      provider.providerId,
      call,
      { timeoutMs: this.options.timeouts.controlMs, ...(onLateResult ? { onLateResult } : {}) },
      fn,
    );
  }
}
