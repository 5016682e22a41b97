import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname, posix } from 'node:path';
import {
  globFiles,
  grepFiles,
  InvalidRequestError,
  RuntimectlError,
  type BackendResource,
  type ExecRequest,
  type ExecResult,
  type ExportedFile,
  type GlobRequest,
  type GrepRequest,
  type PathStat,
  type ProviderBackend,
  type ReadBytesOptions,
  type SearchResult,
  type TempPathRequest,
} from '@runtimectl/core';
import { commandEnvironment } from './exec/command-environment';
import type { ProcessGroups } from './exec/process-groups';
import { runCommand } from './exec/run-command';
import type { WorkspaceSandboxes } from './exec/workspace-sandboxes';
import { errorCode, fileSystemError, workspaceGoneError } from './fs-errors';
import { openRegularFile, readAtMost, type OpenedFile } from './regular-file';
import { WorkspaceJail } from './workspace-jail';
import { workspaceSearchTree } from './workspace-search';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW } = constants;
const TEMP_DIRECTORY = '.tmp';
const TEMP_AFFIX = /^[A-Za-z0-9._-]{0,64}$/;
const MISSING: PathStat = { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };

export interface LocalBackendSettings {
  shell: string;
  env: Record<string, string>;
  killGraceMs: number;
  /** Where commands run: the workspace's namespace sandbox, or host processes. */
  sandboxes: WorkspaceSandboxes;
}

/**
 * One workspace directory on the host. File operations go through the workspace jail; commands
 * run in the workspace's namespace sandbox (or as host processes with isolation "none"), each
 * a process group tracked in `groups` (shared with the provider, which kills them and the
 * sandbox on release).
 */
export class LocalBackend implements ProviderBackend {
  readonly #jail: WorkspaceJail;

  constructor(
    readonly resource: BackendResource,
    /** Real path of the workspace directory. */
    readonly workspaceRoot: string,
    private readonly groups: ProcessGroups,
    private readonly settings: LocalBackendSettings,
    /** The workspace's directory name under the provider root. */
    private readonly workspaceName: string,
  ) {
    this.#jail = new WorkspaceJail(workspaceRoot);
  }

  async stat(path: string): Promise<PathStat> {
    const physical = await this.#jail.resolve(path);
    try {
      const info = await stat(physical);
      const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
      return { exists: true, kind, sizeBytes: kind === 'file' ? info.size : 0, modifiedAtMs: Math.trunc(info.mtimeMs) };
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw await this.#failure(error, path, 'stat', true);
      await this.#assertPresent('stat');
      return MISSING;
    }
  }

  async readBytes(path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    const file = await this.#openRegular(path, O_RDONLY, 'read_bytes');
    try {
      return await readAtMost(file, options.maxBytes ?? Number.MAX_SAFE_INTEGER, path);
    } catch (error) {
      throw RuntimectlError.isInstance(error) ? error : await this.#failure(error, path, 'read_bytes', true);
    } finally {
      await file.handle.close();
    }
  }

  async writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    const physical = await this.#jail.resolve(path);
    const { handle, created } = await this.#create(physical, path);
    try {
      await handle.writeFile(content);
    } catch (error) {
      throw await this.#failure(error, path, 'write_bytes', false);
    } finally {
      await handle.close();
    }
    return { path, created };
  }

  async createDirAll(path: string): Promise<void> {
    const physical = await this.#jail.resolve(path);
    // A recursive mkdir would quietly re-create a workspace that was removed: report it gone.
    await this.#assertPresent('create_dir_all');
    try {
      await mkdir(physical, { recursive: true });
    } catch (error) {
      throw await this.#failure(error, path, 'create_dir_all', false);
    }
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
    const path = `${TEMP_DIRECTORY}/${prefix}${randomBytes(8).toString('hex')}${suffix}`;
    const physical = await this.#jail.resolve(path);
    try {
      if (request.kind === 'directory') await mkdir(physical);
      else await (await open(physical, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)).close();
    } catch (error) {
      throw await this.#failure(error, path, 'temp_path', false);
    }
    return path;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const cwdPath = request.cwd ?? '.';
    const cwd = await this.#jail.resolve(cwdPath);
    try {
      if (!(await stat(cwd)).isDirectory()) throw new InvalidRequestError(`cwd ${cwdPath} is not a directory`, { path: cwdPath });
    } catch (error) {
      throw InvalidRequestError.isInstance(error) ? error : await this.#failure(error, cwdPath, 'exec', true);
    }
    this.groups.prune();
    return runCommand({
      command: request.command,
      shell: request.shell ?? this.settings.shell,
      cwd,
      env: commandEnvironment(this.workspaceRoot, this.settings.env, request.env),
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      killGraceMs: this.settings.killGraceMs,
      groups: this.groups,
      launch: (argv) => this.settings.sandboxes.launch(this.workspaceName, this.workspaceRoot, cwd, argv),
    });
  }

  async glob(request: GlobRequest): Promise<SearchResult> {
    return globFiles(workspaceSearchTree(this.workspaceRoot), await this.#searchBase(request.baseDir), request.pattern, request.limit);
  }

  async grep(request: GrepRequest): Promise<SearchResult> {
    return grepFiles(workspaceSearchTree(this.workspaceRoot), await this.#searchBase(request.baseDir), {
      query: request.query,
      mode: request.mode,
      limit: request.limit,
      ...(request.include ? { include: request.include } : {}),
    });
  }

  async export(path: string): Promise<ExportedFile> {
    const { handle, sizeBytes } = await this.#openRegular(path, O_RDONLY, 'export');
    // A file stream reads the next chunk only when the consumer asks: back-pressure end to end.
    return { fileName: posix.basename(path), sizeBytes, content: handle.createReadStream() };
  }

  async #searchBase(baseDir: string | undefined): Promise<string> {
    return baseDir === undefined ? '' : this.#jail.relative(await this.#jail.resolve(baseDir));
  }

  /** Opens an existing regular file, never blocking (see `openRegularFile`). */
  async #openRegular(path: string, flags: number, call: string): Promise<OpenedFile> {
    const physical = await this.#jail.resolve(path);
    try {
      return await openRegularFile(physical, flags, path);
    } catch (error) {
      throw RuntimectlError.isInstance(error) ? error : await this.#failure(error, path, call, true);
    }
  }

  /** Opens for writing, creating missing parents; `created` tells whether the file is new. */
  async #create(physical: string, path: string): Promise<{ handle: FileHandle; created: boolean }> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return { handle: await open(physical, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW), created: true };
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST') {
          try {
            // O_TRUNC does nothing to a FIFO or device, which is refused once opened.
            return { handle: (await openRegularFile(physical, O_WRONLY | O_TRUNC, path)).handle, created: false };
          } catch (overwriteError) {
            throw RuntimectlError.isInstance(overwriteError) ? overwriteError : await this.#failure(overwriteError, path, 'write_bytes', false);
          }
        }
        if (code !== 'ENOENT' || attempt > 0) throw await this.#failure(error, path, 'write_bytes', false);
      }
      await this.#assertPresent('write_bytes');
      try {
        await mkdir(dirname(physical), { recursive: true });
      } catch (error) {
        throw await this.#failure(error, path, 'write_bytes', false);
      }
    }
  }

  /** The error to throw for a failed file operation; `BackendGoneError` when the workspace itself vanished. */
  async #failure(error: unknown, path: string, call: string, missingParentIsNotFound: boolean): Promise<Error> {
    if (errorCode(error) === 'ENOENT') await this.#assertPresent(call);
    return fileSystemError(error, path, call, missingParentIsNotFound);
  }

  async #assertPresent(call: string): Promise<void> {
    try {
      await stat(this.workspaceRoot);
    } catch {
      throw workspaceGoneError(call, this.workspaceRoot);
    }
  }
}
