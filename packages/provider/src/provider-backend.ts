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
import type { ManifestEntry } from './manifest-entry';

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
  /**
   * Optional: how many processes this backend's commands started are alive now — background
   * jobs an exec left running (`cmd &`, `nohup`, `setsid` ones and their children), and any
   * command still running — or null when the backend cannot tell. Zombies do not count. What
   * the answer is for: such a process may change the workspace with no API call core could see.
   *
   * Core calls it under the runtime's exclusive lock (no exec can start), *before* a checkpoint's
   * or pause's snapshot — counted after, a job that wrote after the snapshot read a file and then
   * exited would be missed — and records the count with the snapshot. It does not call it when no
   * exec ran since the backend was created or last counted 0: only exec starts processes. Only a 0 lets core record
   * the runtime clean, so that its next checkpoint reuses the snapshot without calling the
   * provider, and lets a checkout or resume from that snapshot start clean. Any other answer
   * (and a backend without this method) keeps the runtime dirty: its next checkpoint snapshots
   * again ("when it cannot confirm, it snapshots").
   *
   * Exactness is the point: never answer 0 while a process of the backend's commands may still
   * run (a false 0 makes later checkpoints miss what it writes); counting one too many costs only
   * a snapshot. Choose the cheapest exact signal the platform has: the sandbox's PID namespace
   * (local, fs), processes carrying a marker the exec wrapper sets (E2B). A backend whose commands
   * cannot outlive their exec (the memory provider interprets them) answers 0. Called for a
   * snapshot after an exec, so keep it cheap (one command in the sandbox at most).
   */
  backgroundProcesses?(): Promise<number | null>;
}
