import { randomBytes } from 'node:crypto';
import {
  BackendGoneError,
  FileTooLargeError,
  ProviderError,
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
  type ReadBytesOptions,
} from '@runtimectl/provider';
import { MemoryBackend } from './memory-backend';
import type { MemoryExecHandler } from './memory-commands';
import { MemoryFileSystem } from './memory-file-system';

export interface MemoryProviderSettings {
  /** Defaults to `memory`. */
  providerId?: string;
  /** With `false` the provider has no snapshot methods (like the local provider). Default true. */
  snapshots?: boolean;
  /** Answers exec before the built-in commands (return undefined to fall through). */
  execHandler?: MemoryExecHandler;
  /** Workspace root inside every backend; defaults to `/workspace`. */
  workspaceRoot?: string;
  /** With `false` its backends have no `manifest` (checkpoints record none). Default true. */
  manifests?: boolean;
  /**
   * With `true` a snapshot carries its manifest (`ProviderSnapshot.manifest`, as provider-fs's do),
   * so core does not call the backend's `manifest()` after it. Default false.
   */
  snapshotManifests?: boolean;
  /**
   * What its backends' `backgroundProcesses` answers, asked per backend (by its resource): for
   * tests of core's clean state, as if commands had left jobs running. Default: always 0 (its
   * exec starts no process); `false`: backends without the method, like a provider that cannot count.
   */
  backgroundProcesses?: ((resource: BackendResource) => number | null) | false;
}

interface LiveMemoryBackend {
  backend: MemoryBackend;
  /** The snapshot it was created from: the provider refuses to delete that one, as E2B does. */
  sourceSnapshotId: string | null;
  labels: Record<string, string>;
}

interface MemorySnapshot {
  fs: MemoryFileSystem;
  labels: Record<string, string>;
}

/** Counts of provider calls, for tests that prove reuse (no snapshot call) and cleanup. */
export interface MemoryProviderCallCounts {
  create: number;
  attach: number;
  release: number;
  checkpoint: number;
  checkout: number;
  deleteSnapshot: number;
  /** Backend `manifest` calls (a workspace walk). */
  manifest: number;
}

/**
 * The reference provider: a real implementation of `BackendProviderV1` whose backends live in
 * memory, with full snapshot support (a snapshot is a deep copy of the workspace). Used by
 * core's tests, the conformance suites and the daemon's `[providers.memory]`.
 * Tests can inject faults with `failNext` and inspect `liveBackendIds` / `snapshotIds`.
 */
export class MemoryProvider implements BackendProviderV1 {
  readonly specificationVersion = 'backend-provider-v1' as const;
  readonly providerId: string;
  /**
   * `filesystem`: a snapshot is a copy of the in-memory file tree; nothing runs between commands
   * (its exec is not a shell and starts no process), so there is no memory or process to keep.
   */
  readonly snapshotKind?: 'filesystem';
  /**
   * Restores are verified only when asked: a restore here copies a tree in memory (about a
   * millisecond), so hashing every file to verify it costs many times the restore (bench
   * `verify-restores`, bench/RESULTS.md).
   */
  readonly restoreVerification?: 'opt_in';
  readonly checkpoint?: (backend: ProviderBackend, request: BackendSnapshotRequest) => Promise<ProviderSnapshot>;
  readonly checkout?: (request: BackendCheckoutRequest) => Promise<ProviderBackend>;
  readonly deleteSnapshot?: (snapshotId: string) => Promise<{ deleted: boolean }>;
  readonly readSnapshotFile?: (snapshotId: string, path: string, options?: ReadBytesOptions) => Promise<Uint8Array>;
  readonly calls: MemoryProviderCallCounts = { create: 0, attach: 0, release: 0, checkpoint: 0, checkout: 0, deleteSnapshot: 0, manifest: 0 };

  readonly #live = new Map<string, LiveMemoryBackend>();
  readonly #snapshots = new Map<string, MemorySnapshot>();
  readonly #faults = new Map<string, unknown[]>();
  readonly #settings: MemoryProviderSettings;

  constructor(settings: MemoryProviderSettings = {}) {
    this.#settings = settings;
    this.providerId = settings.providerId ?? 'memory';
    if (settings.snapshots !== false) {
      this.snapshotKind = 'filesystem';
      this.restoreVerification = 'opt_in';
      this.checkpoint = (backend, request) => this.#checkpoint(backend, request);
      this.checkout = (request) => this.#checkout(request);
      this.deleteSnapshot = (snapshotId) => this.#deleteSnapshot(snapshotId);
      this.readSnapshotFile = (snapshotId, path, options) => this.#readSnapshotFile(snapshotId, path, options);
    }
  }

  async create(request: BackendCreateRequest): Promise<ProviderBackend> {
    this.#enter('create');
    this.calls.create += 1;
    return this.#start(new MemoryFileSystem(this.#settings.workspaceRoot), null, request);
  }

  async attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    this.#enter('attach');
    this.calls.attach += 1;
    const live = this.#live.get(String(request.resource.id));
    if (!live) throw this.#gone('attach', request.resource);
    return live.backend;
  }

  async release(request: BackendAttachRequest): Promise<void> {
    this.#enter('release');
    this.calls.release += 1;
    this.#live.delete(String(request.resource.id));
  }

  /** Backends and snapshots labelled with this installation (what reconciliation sweeps). */
  async listOwnedResources(installationId: string): Promise<OwnedResources> {
    this.#enter('list_owned_resources');
    const owned = (labels: Record<string, string>) => labels.runtimectl_installation === installationId;
    return {
      backends: [...this.#live.values()]
        .filter((live) => owned(live.labels))
        .map((live) => ({ backendId: live.labels.runtimectl_backend_id ?? '', resource: live.backend.resource })),
      snapshots: [...this.#snapshots.entries()].filter(([, snapshot]) => owned(snapshot.labels)).map(([snapshotId]) => ({ snapshotId })),
    };
  }

  /** Makes the next `count` calls of `call` (e.g. 'checkout', 'release', 'exec') throw `error`. */
  failNext(call: string, count = 1, error?: unknown): void {
    const queue = this.#faults.get(call) ?? [];
    for (let index = 0; index < count; index += 1) {
      queue.push(error ?? new ProviderError(this.providerId, call, 'injected fault'));
    }
    this.#faults.set(call, queue);
  }

  /** Resource ids of live backends. */
  liveBackendIds(): string[] {
    return [...this.#live.keys()].sort();
  }

  snapshotIds(): string[] {
    return [...this.#snapshots.keys()].sort();
  }

  /** The live backend's workspace, for tests that look inside. */
  fileSystemOf(resourceId: string): MemoryFileSystem | undefined {
    return this.#live.get(resourceId)?.backend.fs;
  }

  /** Simulates the resource vanishing behind the daemon's back (a killed sandbox). */
  destroyBackend(resourceId: string): void {
    this.#live.delete(resourceId);
  }

  /** Simulates a snapshot vanishing behind the daemon's back (deleted at the provider's console). */
  destroySnapshot(snapshotId: string): void {
    this.#snapshots.delete(snapshotId);
  }

  async #checkpoint(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<ProviderSnapshot> {
    this.#enter('checkpoint');
    this.calls.checkpoint += 1;
    const live = this.#live.get(String(backend.resource.id));
    if (!live) throw this.#gone('checkpoint', backend.resource);
    // Random, never a counter: a store outlives this process, and an id reused by the next
    // process would make an old checkpoint's reference name another runtime's snapshot.
    const snapshotId = `memsnap_${randomBytes(16).toString('hex')}`;
    const fs = live.backend.fs.clone();
    this.#snapshots.set(snapshotId, { fs, labels: { ...request.labels } });
    return { snapshotId, names: request.name ? [request.name] : [], ...(this.#settings.snapshotManifests ? { manifest: fs.manifest() } : {}) };
  }

  async #checkout(request: BackendCheckoutRequest): Promise<ProviderBackend> {
    this.#enter('checkout');
    this.calls.checkout += 1;
    const snapshot = this.#snapshots.get(request.snapshotId);
    if (!snapshot) {
      throw new ProviderSnapshotNotFoundError(
        this.providerId,
        'checkout',
        'the snapshot does not exist',
        new Error(`memory snapshot ${request.snapshotId} does not exist`),
      );
    }
    return this.#start(snapshot.fs.clone(), request.snapshotId, request);
  }

  async #readSnapshotFile(snapshotId: string, path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    this.#enter('read_snapshot_file');
    const snapshot = this.#snapshots.get(snapshotId);
    if (!snapshot) throw new ProviderSnapshotNotFoundError(this.providerId, 'read_snapshot_file', 'the snapshot does not exist');
    const content = snapshot.fs.read(path);
    if (options.maxBytes !== undefined && content.byteLength > options.maxBytes) throw new FileTooLargeError(path, options.maxBytes);
    return content;
  }

  async #deleteSnapshot(snapshotId: string): Promise<{ deleted: boolean }> {
    this.#enter('delete_snapshot');
    this.calls.deleteSnapshot += 1;
    if (!this.#snapshots.has(snapshotId)) return { deleted: false };
    const users = [...this.#live.values()].filter((live) => live.sourceSnapshotId === snapshotId);
    if (users.length > 0) throw new SnapshotInUseError('this checkpoint', [], 'a live backend made from it');
    this.#snapshots.delete(snapshotId);
    return { deleted: true };
  }

  /** The backend named by `resource` is gone: the message is public, so its id stays in the cause. */
  #gone(call: string, resource: BackendResource): BackendGoneError {
    return new BackendGoneError(this.providerId, call, 'the memory backend does not exist', new Error(`memory backend ${String(resource.id)} does not exist`));
  }

  #start(fs: MemoryFileSystem, sourceSnapshotId: string | null, request: BackendCreateRequest): MemoryBackend {
    const id = `mem_${request.backendId}`;
    const beforeCall = (call: string) => {
      if (call === 'manifest') this.calls.manifest += 1;
      this.#enter(call);
    };
    const resource = { id };
    const count = this.#settings.backgroundProcesses ?? (() => 0);
    const backend = new MemoryBackend(resource, fs, {
      execHandler: this.#settings.execHandler,
      beforeCall,
      manifests: this.#settings.manifests !== false,
      backgroundProcesses: count === false ? false : () => count(resource),
    });
    this.#live.set(id, { backend, sourceSnapshotId, labels: { ...request.labels } });
    return backend;
  }

  #enter(call: string): void {
    const fault = this.#faults.get(call)?.shift();
    if (fault !== undefined) throw fault;
  }
}

export function createMemoryProvider(settings: MemoryProviderSettings = {}): MemoryProvider {
  return new MemoryProvider(settings);
}
