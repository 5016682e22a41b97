import { type ManifestEntry, type ProviderBackend, type ExecRequest, type ExecResult, type ExportedFile, type GlobRequest, type GrepRequest, type PathStat, type ReadBytesOptions, type SearchResult, type TempPathRequest } from '@runtimectl/provider';
import type { LastSnapshot } from './last-snapshot';
import type { MutationsInFlight } from './mutations-in-flight';
import type { ProviderCalls } from './provider-calls';

export interface TrackedBackendTimeouts {
  /** Deadline of file and search calls. */
  operationMs: number;
  /** Added to an exec's own timeout for its deadline. */
  execGraceMs: number;
  /** Deadline of a manifest: part of a checkpoint, it reads the whole workspace as a snapshot does. */
  controlMs: number;
}

/**
 * A live provider backend whose every call runs under a deadline. (Which calls mutate the
 * workspace, and so make the runtime dirty, is decided before the call: see data-operations.ts.)
 */
export class TrackedBackend {
  constructor(
    readonly providerId: string,
    readonly inner: ProviderBackend,
    readonly lastSnapshot: LastSnapshot,
    private readonly mutations: MutationsInFlight,
    private readonly calls: ProviderCalls,
    private readonly timeouts: TrackedBackendTimeouts,
  ) {}

  /** This backend (same provider backend, last snapshot and mutations in flight) with its calls made through `calls`. */
  withCalls(calls: ProviderCalls): TrackedBackend {
    return calls === this.calls ? this : new TrackedBackend(this.providerId, this.inner, this.lastSnapshot, this.mutations, calls, this.timeouts);
  }

  get workspaceRoot(): string {
    return this.inner.workspaceRoot;
  }

  stat(path: string): Promise<PathStat> {
    return this.#read('stat', () => this.inner.stat(path));
  }

  readBytes(path: string, options?: ReadBytesOptions): Promise<Uint8Array> {
    return this.#read('read_bytes', () => this.inner.readBytes(path, options));
  }

  glob(request: GlobRequest): Promise<SearchResult> {
    return this.#read('glob', () => this.inner.glob(request));
  }

  grep(request: GrepRequest): Promise<SearchResult> {
    return this.#read('grep', () => this.inner.grep(request));
  }

  export(path: string): Promise<ExportedFile> {
    return this.#read('export', () => this.inner.export(path));
  }

  writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    return this.#mutate('write_bytes', this.timeouts.operationMs, () => this.inner.writeBytes(path, content));
  }

  createDirAll(path: string): Promise<void> {
    return this.#mutate('create_dir_all', this.timeouts.operationMs, () => this.inner.createDirAll(path));
  }

  tempPath(request: TempPathRequest): Promise<string> {
    return this.#mutate('temp_path', this.timeouts.operationMs, () => this.inner.tempPath(request));
  }

  exec(request: ExecRequest): Promise<ExecResult> {
    const deadline = (request.timeoutMs ?? this.timeouts.operationMs) + this.timeouts.execGraceMs;
    return this.#mutate('exec', deadline, () => this.inner.exec(request));
  }

  /** The live workspace's content manifest; undefined when the provider produces none. */
  get manifest(): (() => Promise<ManifestEntry[]>) | undefined {
    const inner = this.inner;
    if (!inner.manifest) return undefined;
    return () => this.calls.run(this.providerId, 'manifest', { timeoutMs: this.timeouts.controlMs }, () => inner.manifest!());
  }

  /**
   * What may still change the workspace without an API call: the provider's count of live
   * processes of the backend's commands (`ProviderBackend.backgroundProcesses`, under the
   * file-operation deadline) plus this process's mutating calls still running at the provider.
   * null when the provider cannot tell (no such method, its answer, or no count at all). With
   * `nothingStarted` (no exec since none could run) the provider is not asked: there is nothing
   * for it to count.
   */
  async backgroundProcesses(nothingStarted = false): Promise<number | null> {
    if (nothingStarted) return this.mutations.count;
    const inner = this.inner;
    if (!inner.backgroundProcesses) return null;
    const counted = await this.#read('background_processes', () => inner.backgroundProcesses!());
    // Anything but a count (a provider's bug) is as good as no answer.
    return Number.isSafeInteger(counted) && counted! >= 0 ? counted! + this.mutations.count : null;
  }

  #read<T>(call: string, fn: () => Promise<T>): Promise<T> {
    return this.calls.run(this.providerId, call, { timeoutMs: this.timeouts.operationMs }, fn);
  }

  #mutate<T>(call: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
    return this.calls.run(this.providerId, call, { timeoutMs }, () => this.mutations.track(fn));
  }
}
