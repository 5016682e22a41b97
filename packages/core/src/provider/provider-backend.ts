import type {
  ExecRequest,
  ExecResult,
  ExportedFile,
  GlobRequest,
  ReadBytesOptions,
  GrepRequest,
  PathStat,
  SearchResult,
  TempPathRequest,
} from './operation-types';
import type { BackendResource } from './backend-provider-v1';
import type { ManifestEntry } from '../manifest/manifest-entry';

/**
 * One live provider backend (an E2B sandbox, a local workspace directory …): the operation
 * substrate of a runtime. Paths are relative to `workspaceRoot` or absolute where the provider
 * allows it; a path the provider refuses raises `InvalidRequestError` naming it.
 *
 * Every method may throw `ProviderError` (or `BackendGoneError` when the resource vanished),
 * `ProviderTimeoutError` or `ProviderCapacityError`. Core wraps each backend in dirty tracking
 * and per-call deadlines; providers implement the plain operations.
 */
export interface ProviderBackend {
  /** Persistable description that `attach` turns back into this backend after a restart. */
  readonly resource: BackendResource;
  /** Absolute path of the workspace inside the backend; relative paths resolve against it. */
  readonly workspaceRoot: string;

  /** Never throws for a missing path: `{exists:false}`. */
  stat(path: string): Promise<PathStat>;
  /**
   * Throws `PathNotFoundError` (with the path) when the file does not exist, `InvalidRequestError`
   * when it is not a regular file (never blocking on a FIFO or device where the provider can
   * have them), `FileTooLargeError` when it holds more than `options.maxBytes`.
   */
  readBytes(path: string, options?: ReadBytesOptions): Promise<Uint8Array>;
  /**
   * Creates parent directories; overwrites a regular file. `created` tells whether the file was
   * new; an existing target that is not a regular file is refused with `InvalidRequestError`.
   */
  writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }>;
  /** Creates the directory and its parents. Idempotent. */
  createDirAll(path: string): Promise<void>;
  /** Creates a fresh file or directory inside the workspace and returns its path. */
  tempPath(request: TempPathRequest): Promise<string>;
  /** Runs a shell command; see `ExecRequest`/`ExecResult`. A non-zero exit is a result. */
  exec(request: ExecRequest): Promise<ExecResult>;
  glob(request: GlobRequest): Promise<SearchResult>;
  grep(request: GrepRequest): Promise<SearchResult>;
  /**
   * Streams a regular file out, pulled as the consumer reads (back-pressure). Throws
   * `PathNotFoundError` when missing, `InvalidRequestError` when not a regular file.
   */
  export(path: string): Promise<ExportedFile>;
  /**
   * Optional: the live workspace's content manifest — every file, directory and symbolic link
   * under `workspaceRoot` (not the root itself), in any order, never following a link; FIFOs,
   * sockets and devices are left out. See `ManifestEntry` for each field. The same tree must
   * give the same entries on every provider (so the same root hash): core builds the Merkle
   * trees a checkpoint records and a diff compares. Called under the runtime's exclusive lock
   * (nothing writes meanwhile), right after a checkpoint's snapshot.
   */
  manifest?(): Promise<ManifestEntry[]>;
}
