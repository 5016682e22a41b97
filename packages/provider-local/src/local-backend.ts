import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import {
  globFiles,
  grepFiles,
  InvalidRequestError,
  PathNotFoundError,
  ProviderError,
  RuntimectlError,
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
  type TempPathRequest,
} from '@runtimectl/provider';
import { commandEnvironment } from './exec/command-environment';
import { fileSizeLimitPrefix } from './exec/file-size-limit';
import type { ProcessGroups } from './exec/process-groups';
import { watchQuota } from './exec/quota-watchdog';
import { combineWatches } from './exec/command-watch';
import { watchLimits, type LimitedSandbox } from './exec/limits-watchdog';
import { runCommand, type RunCommandOptions } from './exec/run-command';
import { shellPath } from './exec/shell-path';
import type { WorkspaceSandboxes } from './exec/workspace-sandboxes';
import { errorCode, fileSystemError, workspaceGoneError } from './fs-errors';
import type { WorkspaceQuota } from './quota/workspace-quota';
import { openRegularFile, readAtMost, type OpenedFile } from './regular-file';
import { ownCreated, ownOpened, type WorkspaceOwner } from './sandbox-ownership';
import { descriptorPath, openDirectory, WorkspaceJail, type JailedEntry, type WalkOptions } from './workspace-jail';
import { workspaceSearchTree } from './workspace-search';
import { workspaceManifest, type KnownHashes } from './workspace-manifest';
import { WorkspaceChangedError } from './workspace-walk';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW } = constants;
const TEMP_DIRECTORY = '.tmp';
const TEMP_AFFIX = /^[A-Za-z0-9._-]{0,64}$/;
const MISSING: PathStat = { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };

export interface LocalBackendSettings {
  /** The provider its errors name: `local`, or the id of a provider composing it (`fs`). */
  providerId: string;
  shell: string;
  env: Record<string, string>;
  killGraceMs: number;
  /** The provider's workspace quota; none when disabled. */
  quota?: WorkspaceQuota;
  /** Where commands run: the workspace's namespace sandbox, or host processes. */
  sandboxes: WorkspaceSandboxes;
  /** See `LocalProviderSettings.knownHashes`. */
  knownHashes?: (workspaceName: string) => Promise<KnownHashes | undefined>;
}

/**
 * One workspace directory on the host. File operations go through the workspace jail; commands
 * run in the workspace's namespace sandbox (or as host processes with isolation "none"), each
 * a process group tracked in `groups` (shared with the provider, which kills them and the
 * sandbox on release).
 */
export class LocalBackend implements ProviderBackend {
  readonly #jail: WorkspaceJail;

  /** Where the workspace's commands see it: its stable path in the sandbox, or its host directory without isolation. */
  readonly workspaceRoot: string;

  constructor(
    readonly resource: BackendResource,
    /** Real path of the workspace directory on the host. */
    private readonly directory: string,
    visibleRoot: string,
    private readonly groups: ProcessGroups,
    private readonly settings: LocalBackendSettings,
    /** The workspace's directory name under the provider root. */
    private readonly workspaceName: string,
  ) {
    this.workspaceRoot = visibleRoot;
    this.#jail = new WorkspaceJail(directory, visibleRoot);
  }

  async stat(path: string): Promise<PathStat> {
    try {
      // The walk's lstat of the entry (links resolved) is the answer.
      return await this.#jail.within(path, {}, async ({ info }) => (info ? pathStat(info) : MISSING));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw await this.#mapped(error, path, 'stat', true);
      await this.#assertPresent('stat');
      return MISSING;
    }
  }

  async readBytes(path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    const file = await this.#openRegular(path, O_RDONLY, 'read_bytes');
    try {
      return await readAtMost(file, options.maxBytes ?? Number.MAX_SAFE_INTEGER, path);
    } catch (error) {
      throw await this.#mapped(error, path, 'read_bytes', true);
    } finally {
      await file.handle.close();
    }
  }

  async writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    const owner = await this.settings.sandboxes.owner();
    const { handle, created, replacedBytes } = await this.#jailed(path, 'write_bytes', false, this.#creating(owner, path, 'write_bytes'), async (entry) => {
      const replaced = await this.#quotaCheck(entry, path, content.byteLength);
      const opened = await this.#create(entry, path);
      if (opened.created) await ownOpened(opened.handle, owner).catch(async (error: unknown) => {
        await opened.handle.close();
        throw error;
      });
      return { ...opened, replacedBytes: replaced };
    });
    try {
      await handle.writeFile(content);
    } catch (error) {
      throw await this.#failure(error, path, 'write_bytes', false);
    } finally {
      await handle.close();
    }
    this.settings.quota?.wrote(this.directory, content.byteLength - replacedBytes, created ? 1 : 0);
    return { path, created };
  }

  async createDirAll(path: string): Promise<void> {
    const owner = await this.settings.sandboxes.owner();
    // The walk starts from the workspace's descriptor, so a removed workspace is never re-created.
    await this.#jailed(path, 'create_dir_all', false, this.#creating(owner, path, 'create_dir_all'), async ({ at, info }) => {
      if (info !== undefined) return requireDirectory(info);
      await this.#assertEntriesFit(path, 'create_dir_all', { addBytes: 0, replacedBytes: 0, newEntries: 1 });
      try {
        await mkdir(at);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        requireDirectory(await lstat(at)); // made meanwhile
        return;
      }
      this.settings.quota?.wrote(this.directory, 0, 1);
      await ownCreated(at, owner);
    });
  }

  /**
   * Walk options that create missing parents, each given to `owner` (the sandbox identity) as it
   * is made. Before the first is made, every entry the path needs is counted against the inode
   * quota: a refused write leaves no directory behind (else refused writes could pile up
   * directories past the quota).
   */
  #creating(owner: WorkspaceOwner | undefined, path: string, operation: string): WalkOptions {
    const quota = this.settings.quota;
    return {
      createParents: true,
      ...(quota ? { creating: (_at: string, entries: number) => this.#assertEntriesFit(path, operation, { addBytes: 0, replacedBytes: 0, newEntries: entries }) } : {}),
      created: async (at) => {
        quota?.wrote(this.directory, 0, 1);
        await ownCreated(at, owner);
      },
    };
  }

  async tempPath(request: TempPathRequest): Promise<string> {
    const prefix = request.prefix ?? 'tmp-';
    const suffix = request.suffix ?? '';
    if (!TEMP_AFFIX.test(prefix) || !TEMP_AFFIX.test(suffix)) {
      throw new InvalidRequestError('temp prefix and suffix may hold only letters, digits, ".", "_" and "-" (at most 64)', {
        prefix,
        suffix,
      });
    }
    await this.createDirAll(TEMP_DIRECTORY);
    const owner = await this.settings.sandboxes.owner();
    const path = `${TEMP_DIRECTORY}/${prefix}${randomBytes(8).toString('hex')}${suffix}`;
    await this.#jailed(path, 'temp_path', false, {}, async ({ at }) => {
      await this.#assertEntriesFit(path, 'temp_path', { addBytes: 0, replacedBytes: 0, newEntries: 1 });
      this.settings.quota?.wrote(this.directory, 0, 1);
      if (request.kind === 'directory') {
        await mkdir(at);
        await ownCreated(at, owner);
        return;
      }
      const handle = await open(at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW);
      try {
        await ownOpened(handle, owner);
      } finally {
        await handle.close();
      }
    });
    return path;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const cwdPath = request.cwd ?? '.';
    // A host command starts in the directory the walk holds open: the child's chdir goes through
    // `/proc/self/fd/<fd>` (its own copy of the descriptor until exec), so no swap redirects it.
    // A sandboxed one enters the checked path inside its namespace, where the workspace is at
    // its stable path (`workspaceRoot`) and nothing of the host outside it exists to escape to.
    const directory = await this.#jailed(cwdPath, 'exec', true, {}, async ({ at, info, relative }) => {
      if (!info?.isDirectory()) throw info ? new InvalidRequestError(`cwd ${cwdPath} is not a directory`, { path: cwdPath }) : new PathNotFoundError(cwdPath);
      return { handle: await openDirectory(at), relative };
    });
    try {
      this.groups.prune();
      const entered = await this.settings.sandboxes.enter(this.workspaceName, this.directory);
      const options: RunCommandOptions = {
        providerId: this.settings.providerId,
        command: request.command,
        shell: request.shell ?? this.settings.shell,
        cwd: descriptorPath(directory.handle),
        env: commandEnvironment(this.workspaceRoot, this.settings.env, request.env),
        timeoutMs: request.timeoutMs,
        maxOutputBytes: request.maxOutputBytes,
        killGraceMs: this.settings.killGraceMs,
        groups: this.groups,
        launch: async (argv, env) => entered?.launch(posix.join(this.workspaceRoot, directory.relative), argv, env),
      };
      const quoted = this.settings.quota ? await this.#withinQuota(options, this.settings.quota) : options;
      return await runCommand(entered?.limited ? withinLimits(quoted, entered.limited) : quoted);
    } finally {
      await directory.handle.close();
    }
  }

  /**
   * Processes the workspace's commands left running (background jobs, `setsid` children, commands
   * still running), counted in the workspace's namespace sandbox (its PID namespace: nothing
   * started there can leave it); null with isolation `none`, where host processes cannot be
   * counted exactly. See `ProviderBackend.backgroundProcesses`.
   */
  backgroundProcesses(): Promise<number | null> {
    return this.settings.sandboxes.runningProcesses(this.workspaceName);
  }

  /**
   * A command under the quota: no file it writes may grow past the quota (RLIMIT_FSIZE), and a
   * watchdog stops its process group when the workspace grows over the quota (see watchQuota).
   */
  async #withinQuota(options: RunCommandOptions, quota: WorkspaceQuota): Promise<RunCommandOptions> {
    // Any earlier measurement will do as the baseline: it only tells a clean-up (rm) of a
    // workspace already over the quota from a command that grows it.
    const start = quota.lastKnown(this.directory) ?? (await quota.usage(this.directory).catch(() => ({ bytes: 0, inodes: 0 })));
    const prefix = quota.quotaBytes > 0 ? fileSizeLimitPrefix(quota.quotaBytes) : [];
    return {
      ...options,
      ...(prefix.length > 0 ? { prefix, shell: await shellPath(options.shell, options.cwd, options.env) } : {}),
      watch: (pgid) => watchQuota(pgid, this.directory, quota, start, this.settings.killGraceMs),
    };
  }

  async glob(request: GlobRequest): Promise<SearchResult> {
    return globFiles(workspaceSearchTree(this.#jail), await this.#searchBase(request.baseDir), request.pattern, request.limit);
  }

  async grep(request: GrepRequest): Promise<SearchResult> {
    return grepFiles(workspaceSearchTree(this.#jail), await this.#searchBase(request.baseDir), request);
  }

  async export(path: string): Promise<ExportedFile> {
    const { handle, sizeBytes } = await this.#openRegular(path, O_RDONLY, 'export');
    // A file stream reads the next chunk only when the consumer asks: back-pressure end to end.
    return { fileName: posix.basename(path), sizeBytes, content: handle.createReadStream() };
  }

  /** Refuses a write over the quota; resolves the size of the file it replaces (0 when new). */
  async #quotaCheck({ info }: JailedEntry, path: string, addBytes: number): Promise<number> {
    const quota = this.settings.quota;
    if (!quota) return 0;
    // The walk's lstat of the entry (links resolved): what the write replaces.
    const replacedBytes = info?.isFile() ? info.size : 0;
    await this.#assertEntriesFit(path, 'write_bytes', { addBytes, replacedBytes, newEntries: info ? 0 : 1 });
    return replacedBytes;
  }

  /** Refuses a write of the file API over the quota (see WorkspaceQuota.assertWriteFits). */
  async #assertEntriesFit(path: string, operation: string, write: { addBytes: number; replacedBytes: number; newEntries: number }): Promise<void> {
    const quota = this.settings.quota;
    if (!quota) return;
    try {
      await quota.assertWriteFits(this.directory, path, write);
    } catch (error) {
      if (RuntimectlError.isInstance(error)) throw error;
      await this.#assertPresent(operation);
      throw new ProviderError(this.settings.providerId, operation, 'could not measure the workspace usage', error);
    }
  }

  /** The workspace-relative physical path of the search base, which search walks again through the jail. */
  async #searchBase(baseDir: string | undefined): Promise<string> {
    if (baseDir === undefined) return '';
    try {
      return await this.#jail.within(baseDir, {}, async ({ relative }) => relative);
    } catch (error) {
      // A missing base finds nothing, as in every other provider; its files are listed (none) through the jail.
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return baseDir;
      throw await this.#mapped(error, baseDir, 'search', true);
    }
  }

  /** Opens an existing regular file, never blocking (see `openRegularFile`). */
  async #openRegular(path: string, flags: number, call: string): Promise<OpenedFile> {
    return this.#jailed(path, call, true, {}, ({ at }) => openRegularFile(at, flags, path));
  }

  /** Opens the walked entry for writing (its parents exist); `created` tells whether the file is new. */
  async #create({ at }: JailedEntry, path: string): Promise<{ handle: FileHandle; created: boolean }> {
    try {
      return { handle: await open(at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW), created: true };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    // O_TRUNC does nothing to a FIFO or device, which is refused once opened.
    return { handle: (await openRegularFile(at, O_WRONLY | O_TRUNC, path)).handle, created: false };
  }

  /** `use` on the jailed entry of `path`; file-system errors become core's errors (see `#failure`). */
  async #jailed<T>(path: string, call: string, missingParentIsNotFound: boolean, options: WalkOptions, use: (entry: JailedEntry) => Promise<T>): Promise<T> {
    try {
      return await this.#jail.within(path, options, use);
    } catch (error) {
      throw await this.#mapped(error, path, call, missingParentIsNotFound);
    }
  }

  /** Every directory, symlink and regular file of the workspace, files hashed (see workspaceManifest). */
  async manifest(): Promise<ManifestEntry[]> {
    await this.#assertPresent('manifest');
    const known = await this.settings.knownHashes?.(this.workspaceName);
    try {
      return await workspaceManifest(this.directory, known);
    } catch (error) {
      if (error instanceof WorkspaceChangedError) throw new ProviderError(this.settings.providerId, 'manifest', error.message, error);
      throw await this.#mapped(error, '.', 'manifest', false);
    }
  }

  /** Core's errors pass; anything else is a file-system error, mapped by `#failure`. */
  async #mapped(error: unknown, path: string, call: string, missingParentIsNotFound: boolean): Promise<Error> {
    return RuntimectlError.isInstance(error) ? error : this.#failure(error, path, call, missingParentIsNotFound);
  }

  /** The error to throw for a failed file operation; `BackendGoneError` when the workspace itself vanished. */
  async #failure(error: unknown, path: string, call: string, missingParentIsNotFound: boolean): Promise<Error> {
    if (errorCode(error) === 'ENOENT') await this.#assertPresent(call);
    return fileSystemError(this.settings.providerId, error, path, call, missingParentIsNotFound);
  }

  async #assertPresent(call: string): Promise<void> {
    try {
      await stat(this.directory);
    } catch {
      throw workspaceGoneError(this.settings.providerId, call, this.directory);
    }
  }
}

/** A command under its sandbox's limits too (see watchLimits), beside any watch it already has. */
function withinLimits(options: RunCommandOptions, limited: LimitedSandbox): RunCommandOptions {
  const other = options.watch;
  return { ...options, watch: (pgid) => combineWatches([...(other ? [other(pgid)] : []), watchLimits(pgid, limited)]) };
}

function pathStat(info: Stats): PathStat {
  const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  return { exists: true, kind, sizeBytes: kind === 'file' ? info.size : 0, modifiedAtMs: Math.trunc(info.mtimeMs) };
}

/** `mkdir -p` succeeds on a directory; anything else standing there is EEXIST. */
function requireDirectory(info: Stats): void {
  if (!info.isDirectory()) throw Object.assign(new Error('exists and is not a directory'), { code: 'EEXIST' });
}
