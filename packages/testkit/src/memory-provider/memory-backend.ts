import { posix } from 'node:path';
import {
  FileTooLargeError,
  globFiles,
  grepFiles,
  type BackendResource,
  type ExecRequest,
  type ExecResult,
  type ExportedFile,
  type GlobRequest,
  type GrepRequest,
  type ManifestEntry,
  type PathStat,
  type ProviderBackend,
  type ReadBytesOptions,
  type SearchResult,
  type SearchTree,
  type TempPathRequest,
} from '@runtimectl/provider';
import { execInMemory, type MemoryExecHandler } from './memory-commands';
import type { MemoryFileSystem } from './memory-file-system';

export interface MemoryBackendOptions {
  execHandler: MemoryExecHandler | undefined;
  /** Called first by every operation (counts calls, throws injected faults). */
  beforeCall: (call: string) => void;
  /** false: no `manifest` (checkpoints record none). */
  manifests: boolean;
  /** What `backgroundProcesses` answers; false: the backend has no such method (it cannot count). */
  backgroundProcesses: (() => number | null) | false;
}

/** One memory backend: the operation substrate over a MemoryFileSystem. */
export class MemoryBackend implements ProviderBackend {
  #tempCounter = 0;
  readonly #execHandler: MemoryExecHandler | undefined;
  readonly #beforeCall: (call: string) => void;
  /** Present unless the provider was made without manifests. */
  readonly manifest?: () => Promise<ManifestEntry[]>;
  /**
   * Its exec interprets commands in this process and starts none, so nothing of a command
   * outlives it: 0, unless the provider's settings say otherwise (tests) or leave it out.
   */
  readonly backgroundProcesses?: () => Promise<number | null>;

  constructor(
    readonly resource: BackendResource,
    readonly fs: MemoryFileSystem,
    options: MemoryBackendOptions,
  ) {
    this.#execHandler = options.execHandler;
    this.#beforeCall = options.beforeCall;
    if (options.manifests) {
      this.manifest = async () => {
        this.#beforeCall('manifest');
        return this.fs.manifest();
      };
    }
    const count = options.backgroundProcesses;
    if (count) {
      this.backgroundProcesses = async () => {
        this.#beforeCall('background_processes');
        return count();
      };
    }
  }

  get workspaceRoot(): string {
    return this.fs.root;
  }

  async stat(path: string): Promise<PathStat> {
    this.#beforeCall('stat');
    return this.fs.stat(path);
  }

  async readBytes(path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    this.#beforeCall('read_bytes');
    const content = this.fs.read(path);
    if (options.maxBytes !== undefined && content.byteLength > options.maxBytes) throw new FileTooLargeError(path, options.maxBytes);
    return content;
  }

  async writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    this.#beforeCall('write_bytes');
    return this.fs.write(path, content);
  }

  async createDirAll(path: string): Promise<void> {
    this.#beforeCall('create_dir_all');
    this.fs.mkdirAll(path);
  }

  async tempPath(request: TempPathRequest): Promise<string> {
    this.#beforeCall('temp_path');
    this.#tempCounter += 1;
    const path = `.tmp/${request.prefix ?? 'tmp-'}${Date.now().toString(36)}-${this.#tempCounter}${request.suffix ?? ''}`;
    if (request.kind === 'directory') this.fs.mkdirAll(path);
    else this.fs.write(path, new Uint8Array());
    return path;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    this.#beforeCall('exec');
    return execInMemory(request, this.fs, this.#execHandler);
  }

  async glob(request: GlobRequest): Promise<SearchResult> {
    this.#beforeCall('glob');
    return globFiles(this.#tree(), this.#base(request.baseDir), request.pattern, request.limit);
  }

  async grep(request: GrepRequest): Promise<SearchResult> {
    this.#beforeCall('grep');
    return grepFiles(this.#tree(), this.#base(request.baseDir), request);
  }

  async export(path: string): Promise<ExportedFile> {
    this.#beforeCall('export');
    const content = this.fs.read(path);
    return {
      fileName: posix.basename(path),
      sizeBytes: content.byteLength,
      content: (async function* () {
        yield content;
      })(),
    };
  }

  #tree(): SearchTree {
    return {
      listFiles: async (baseDir) => this.fs.filesUnder(baseDir),
      readFile: async (path, maxBytes) => {
        const content = this.fs.read(path);
        if (maxBytes !== undefined && content.byteLength > maxBytes) throw new FileTooLargeError(path, maxBytes);
        return content;
      },
    };
  }

  #base(baseDir: string | undefined): string {
    return baseDir === undefined ? '' : this.fs.relative(this.fs.resolve(baseDir));
  }
}
