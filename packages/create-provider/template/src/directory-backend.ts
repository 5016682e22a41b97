import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import {
  BackendGoneError,
  FileTooLargeError,
  InvalidRequestError,
  PathNotFoundError,
  ProviderError,
  WorkspacePaths,
  globFiles,
  grepFiles,
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
  type SearchTree,
  type TempPathRequest,
} from '@runtimectl/provider';
import { errorCode, fileSystemError, notRegularFileError } from './file-system-errors.js';
import { runCommand } from './run-command.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } = constants;
const MISSING: PathStat = { exists: false, kind: null, sizeBytes: null, modifiedAtMs: null };
const COMMAND_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const TEMP_DIRECTORY = '.tmp';
const TEMP_AFFIX = /^[A-Za-z0-9._-]{0,64}$/;

export interface DirectoryBackendSettings {
  providerId: string;
  resource: BackendResource;
  /** The workspace directory: a real path (no symbolic link in it), absolute. */
  workspaceRoot: string;
  commandTimeoutMs: number;
  /** Told the process group of every command started, so `release` can end what is left running. */
  onCommandStarted(processGroup: number): void;
}

/**
 * One workspace directory on this machine. Every path goes through the one path rule
 * (`WorkspacePaths`: relative to the workspace or absolute inside it), then through its real path:
 * a symbolic link is followed only while it stays inside the workspace. Files are opened with
 * O_NOFOLLOW and O_NONBLOCK, so neither a link swapped in nor a FIFO can lead a call astray.
 *
 * Not a sandbox: commands run as this process's user with its file-system view. The checks keep
 * the file API inside the workspace; they do not contain the commands.
 */
export class DirectoryBackend implements ProviderBackend {
  readonly resource: BackendResource;
  readonly workspaceRoot: string;
  readonly #settings: DirectoryBackendSettings;
  readonly #paths: WorkspacePaths;

  constructor(settings: DirectoryBackendSettings) {
    this.#settings = settings;
    this.resource = settings.resource;
    this.workspaceRoot = settings.workspaceRoot;
    this.#paths = new WorkspacePaths(settings.workspaceRoot);
  }

  async stat(path: string): Promise<PathStat> {
    return this.#guard(path, 'stat', true, async () => {
      let info: Stats;
      try {
        info = await lstat(await this.#hostPath(path, false));
      } catch (error) {
        if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '') || PathNotFoundError.isInstance(error)) return MISSING;
        throw error;
      }
      const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'other';
      return { exists: true, kind, sizeBytes: info.size, modifiedAtMs: Math.floor(info.mtimeMs) };
    });
  }

  async readBytes(path: string, options?: ReadBytesOptions): Promise<Uint8Array> {
    return this.#guard(path, 'read_bytes', true, async () => {
      const { handle, info } = await this.#openRegularFile(path);
      try {
        return await readAtMost(handle, info.size, path, options?.maxBytes);
      } finally {
        await handle.close();
      }
    });
  }

  async writeBytes(path: string, content: Uint8Array): Promise<{ path: string; created: boolean }> {
    return this.#guard(path, 'write_bytes', false, async () => {
      const host = await this.#hostPath(path, true);
      const existing = await lstat(host).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (existing && !existing.isFile()) throw notRegularFileError(path);
      await mkdir(posix.dirname(host), { recursive: true });
      const handle = await open(host, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK);
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
      return { path, created: existing === undefined };
    });
  }

  async createDirAll(path: string): Promise<void> {
    await this.#guard(path, 'create_dir_all', false, async () => {
      const host = await this.#hostPath(path, true);
      await mkdir(host, { recursive: true });
      if (!(await stat(host)).isDirectory()) throw new InvalidRequestError(`${path} already exists and is not a directory`, { path });
    });
  }

  async tempPath(request: TempPathRequest): Promise<string> {
    const prefix = request.prefix ?? 'tmp-';
    const suffix = request.suffix ?? '';
    if (!TEMP_AFFIX.test(prefix) || !TEMP_AFFIX.test(suffix)) {
      throw new InvalidRequestError('temp prefix and suffix may hold only letters, digits, ".", "_" and "-" (at most 64)', { prefix, suffix });
    }
    const path = `${TEMP_DIRECTORY}/${prefix}${randomBytes(8).toString('hex')}${suffix}`;
    await this.createDirAll(TEMP_DIRECTORY);
    await this.#guard(path, 'temp_path', false, async () => {
      const host = await this.#hostPath(path, false);
      if (request.kind === 'directory') return mkdir(host);
      return (await open(host, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)).close();
    });
    return path;
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const cwdPath = request.cwd ?? '.';
    const cwd = await this.#guard(cwdPath, 'exec', true, async () => {
      const host = await this.#hostPath(cwdPath, true);
      if (!(await stat(host)).isDirectory()) throw new InvalidRequestError(`${cwdPath} is not a directory`, { path: cwdPath });
      return host;
    });
    try {
      return await runCommand({
        shell: request.shell ?? '/bin/sh',
        command: request.command,
        cwd,
        env: { PATH: COMMAND_PATH, HOME: this.workspaceRoot, LANG: 'C.UTF-8', ...request.env },
        timeoutMs: request.timeoutMs ?? this.#settings.commandTimeoutMs,
        maxOutputBytes: request.maxOutputBytes,
        onStarted: this.#settings.onCommandStarted,
      });
    } catch (error) {
      throw new ProviderError(this.#settings.providerId, 'exec', 'the shell could not be started', error);
    }
  }

  async glob(request: GlobRequest): Promise<SearchResult> {
    return globFiles(this.#searchTree(), this.#paths.relative(request.baseDir ?? ''), request.pattern, request.limit);
  }

  async grep(request: GrepRequest): Promise<SearchResult> {
    const { baseDir, ...rest } = request;
    return grepFiles(this.#searchTree(), this.#paths.relative(baseDir ?? ''), rest);
  }

  async export(path: string): Promise<ExportedFile> {
    return this.#guard(path, 'export', true, async () => {
      const { handle, info } = await this.#openRegularFile(path);
      // The stream closes the handle once read to the end (or destroyed).
      return { fileName: posix.basename(this.#paths.resolve(path)), sizeBytes: info.size, content: handle.createReadStream() };
    });
  }

  /** Runs `work`, turning whatever the file system throws into the contract's errors, named by the caller's path. */
  async #guard<T>(path: string, call: string, readLike: boolean, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw fileSystemError(this.#settings.providerId, call, path, error, readLike);
    }
  }

  /**
   * Where `path` is on the host: the real path of its parent (and of itself with `followLast`),
   * which must be inside the workspace. `InvalidRequestError` when the path, or a symbolic link
   * on the way, leads out.
   */
  async #hostPath(path: string, followLast: boolean): Promise<string> {
    const absolute = this.#paths.resolve(path);
    if (absolute === this.workspaceRoot) return this.#realInside(absolute, path);
    if (followLast) return this.#realInside(absolute, path);
    return posix.join(await this.#realInside(posix.dirname(absolute), path), posix.basename(absolute));
  }

  /** The real path of `absolute`, or of its deepest existing ancestor with the rest appended; never outside the workspace. */
  async #realInside(absolute: string, path: string): Promise<string> {
    const rest: string[] = [];
    for (let existing = absolute; ; existing = posix.dirname(existing)) {
      let real: string;
      try {
        real = await realpath(existing);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        if (existing === this.workspaceRoot) throw this.#gone(error);
        // realpath says ENOENT for a link to nowhere as well: following it could create a file anywhere.
        if (await lstat(existing).then(() => true, () => false)) {
          throw new InvalidRequestError(`${path} goes through a symbolic link that leads nowhere in the workspace`, { path });
        }
        rest.unshift(posix.basename(existing));
        continue;
      }
      if (real !== this.workspaceRoot && !real.startsWith(`${this.workspaceRoot}/`)) {
        throw new InvalidRequestError(`${path} leads outside the workspace through a symbolic link`, { path });
      }
      return posix.join(real, ...rest);
    }
  }

  async #openRegularFile(path: string): Promise<{ handle: FileHandle; info: Stats }> {
    const handle = await open(await this.#hostPath(path, true), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    const info = await handle.stat();
    if (info.isFile()) return { handle, info };
    await handle.close();
    throw notRegularFileError(path);
  }

  #gone(cause: unknown): BackendGoneError {
    return new BackendGoneError(this.#settings.providerId, 'workspace', 'the workspace directory no longer exists', cause);
  }

  /** The workspace as `globFiles`/`grepFiles` see it: regular files, found without following links; what vanishes meanwhile is passed over. */
  #searchTree(): SearchTree {
    return {
      listFiles: async (baseDir) => {
        const files: string[] = [];
        try {
          await listFilesUnder(await this.#hostPath(baseDir, true), baseDir, files);
        } catch (error) {
          if (!InvalidRequestError.isInstance(error) && !PathNotFoundError.isInstance(error) && !errorCode(error)) throw error;
        }
        return files;
      },
      readFile: async (path, maxBytes) => {
        try {
          return await this.readBytes(path, maxBytes === undefined ? {} : { maxBytes });
        } catch (error) {
          if (FileTooLargeError.isInstance(error)) throw error;
          if (InvalidRequestError.isInstance(error) || PathNotFoundError.isInstance(error)) return new Uint8Array();
          throw error;
        }
      },
    };
  }
}

/** Reads a regular file of `sizeBytes`; `FileTooLargeError` after at most `maxBytes + 1` bytes when it holds more. */
async function readAtMost(handle: FileHandle, sizeBytes: number, path: string, maxBytes: number | undefined): Promise<Uint8Array> {
  const wanted = maxBytes === undefined ? sizeBytes : Math.min(sizeBytes, maxBytes + 1);
  const buffer = Buffer.alloc(wanted);
  let filled = 0;
  while (filled < wanted) {
    const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (maxBytes !== undefined && filled > maxBytes) throw new FileTooLargeError(path, maxBytes);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
}

/** Adds the regular files under the host directory `directory` (workspace-relative `relative`) to `files`. */
async function listFilesUnder(directory: string, relative: string, files: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return; // vanished, not a directory, unreadable or too deep: passed over, as grep -r does
  }
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) await listFilesUnder(posix.join(directory, entry.name), path, files);
    else if (entry.isFile()) files.push(path);
  }
}
