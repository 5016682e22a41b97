import { constants, existsSync, openSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, type FileHandle } from 'node:fs/promises';
import { InvalidRequestError, WorkspacePaths } from '@runtimectl/provider';
import { errorCode } from './fs-errors';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Linux limits: a name of at most 255 bytes, a path of at most 4,095. */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4095;
/** As the kernel's ELOOP limit: more symbolic links than this in one path is refused. */
const MAX_SYMLINK_HOPS = 40;

const quoted = (path: string) => JSON.stringify(path);
/** The walk needs Linux's magic links to open descriptors' entries. */
const HAS_PROC_FD = existsSync('/proc/self/fd');

/** One entry of the workspace, reached with no window for a swap (see `WorkspaceJail`). */
export interface JailedEntry {
  /**
   * `/proc/self/fd/<directory>/<name>`: the kernel takes `<directory>` from the open descriptor
   * and looks up only `<name>` in it. Use it with `O_NOFOLLOW`, `lstat`, `mkdir` — calls that
   * never follow a last component — so a link swapped in now is refused, not followed.
   */
  readonly at: string;
  /** `lstat` of the entry when the walk reached it (never a symbolic link); undefined: it does not exist. */
  readonly info: Stats | undefined;
  /** Its workspace-relative physical path ('' for the root), POSIX separators. */
  readonly relative: string;
}

export interface WalkOptions {
  /** Create missing directories on the way, as `mkdir -p` (the last component is left to the caller). */
  createParents?: boolean;
  /**
   * Asked before each directory the walk would create (its descriptor path), with how many
   * entries the path still needs from there: that directory and every component after it, the
   * last one (the caller's) included. Throws to refuse it (a quota).
   */
  creating?: (at: string, entries: number) => Promise<void>;
  /** Told of each directory the walk created (its descriptor path), before the walk enters it. */
  created?: (at: string) => Promise<void>;
}

/** The path of an open descriptor (or of `name` in the directory it holds) that the kernel resolves through the descriptor itself. */
export const descriptorPath = (handle: FileHandle | number, name = '.') => `/proc/self/fd/${typeof handle === 'number' ? handle : handle.fd}/${name}`;

const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

/** Opens a directory, never following a symbolic link as its last component (never blocks: not a FIFO). */
export const openDirectory = (path: string) => open(path, DIRECTORY_FLAGS);

/** `openDirectory` as a synchronous call returning the descriptor (for walks that batch small system calls). */
export const openDirectorySync = (path: string | Buffer) => openSync(path, DIRECTORY_FLAGS);

/**
 * Confines file-API paths to one workspace directory with no window between check and use.
 * A path (relative to the workspace, or absolute) is first resolved lexically by core's
 * `WorkspacePaths` (the path rule every provider shares: `..` that climbs out, or an absolute
 * path elsewhere, is refused; `a/b/../c` is `a/c`). Then it is walked from a descriptor of the
 * workspace root, one component at a time, each directory opened with `O_NOFOLLOW` relative to
 * the descriptor of the one before (Node has no `openat`: `/proc/self/fd/<fd>/<name>` does the
 * same). A symbolic link on the way is read, never followed by the kernel, and its target walked
 * the same way: from the root for an absolute target (refused unless under the workspace root
 * as commands see it),
 * from the link's directory for a relative one, `..` back to the descriptor it came from
 * (refused at the root) — so links that stay inside are followed as the kernel would, and no
 * swap of any component, at any moment, can lead the walk out. Every descriptor is closed when
 * `use` settles. Every refusal is `InvalidRequestError` naming the caller's path; file-system
 * errors of the walk (ENOENT, ENOTDIR, EACCES…) are thrown as they are, for the caller to map.
 */
export class WorkspaceJail {
  readonly #paths: WorkspacePaths;
  readonly #rootNames: string[];

  /**
   * `root`: the workspace's host directory, a real path (no symbolic links in it). `visibleRoot`:
   * where the workspace's commands see it (default `root`) — absolute paths, of the file API and
   * of symbolic links commands made, are read as the commands meant them: under `visibleRoot`.
   */
  constructor(
    readonly root: string,
    visibleRoot = root,
  ) {
    if (!HAS_PROC_FD) throw new Error('the local provider needs Linux /proc/self/fd to resolve workspace paths without a race');
    this.#paths = new WorkspacePaths(visibleRoot);
    this.#rootNames = visibleRoot.split('/').filter(Boolean);
  }

  /** Walks to `path` and hands its entry to `use`, holding the descriptors of its directories meanwhile. */
  async within<T>(path: string, options: WalkOptions, use: (entry: JailedEntry) => Promise<T>): Promise<T> {
    const pending = this.#underRoot(this.#lexical(path).split('/'))!.reverse();
    const directories = [await openDirectory(this.root)];
    try {
      return await use(await this.#walk(path, pending, directories, options));
    } finally {
      await Promise.all(directories.map((directory) => directory.close()));
    }
  }

  /** `pending`: components still to walk, the next one last. `directories`: the root's descriptor, then one per level walked. */
  async #walk(path: string, pending: string[], directories: FileHandle[], options: WalkOptions): Promise<JailedEntry> {
    const names: string[] = [];
    let hops = 0;
    /** Walks on through the link `at` instead; false when `at` is no longer a link. */
    const followed = async (at: string): Promise<boolean> => {
      if ((hops += 1) > MAX_SYMLINK_HOPS) throw new InvalidRequestError(`path ${quoted(path)} has too many symbolic links`, { path });
      const target = await linkTarget(at);
      if (target === undefined) return false;
      let parts = target.split('/');
      if (target.startsWith('/')) {
        parts = this.#underRoot(parts) ?? this.#refuseEscape(path);
        await Promise.all(directories.splice(1).map((directory) => directory.close()));
        names.length = 0;
      }
      pending.push(...parts.reverse());
      return true;
    };
    for (;;) {
      const top = directories.at(-1)!;
      const name = pending.pop();
      if (name === undefined) return { at: descriptorPath(top), info: await lstat(descriptorPath(top)), relative: names.join('/') };
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (directories.length === 1) this.#refuseEscape(path);
        await directories.pop()!.close();
        names.pop();
        continue;
      }
      const at = descriptorPath(top, name);
      if (pending.length === 0) {
        const info = await lstatIfPresent(at);
        if (!info?.isSymbolicLink()) return { at, info, relative: [...names, name].join('/') };
        // Swapped back to a file or directory since the lstat: look again.
        if (!(await followed(at))) pending.push(name);
        continue;
      }
      try {
        directories.push(await openDirectory(at));
        names.push(name);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' && options.createParents && (hops += 1) <= MAX_SYMLINK_HOPS) {
          await options.creating?.(at, 1 + pending.length);
          const made = await mkdir(at).then(
            () => true,
            (mkdirError: unknown) => {
              if (errorCode(mkdirError) !== 'EEXIST') throw mkdirError;
              return false;
            },
          );
          if (made) await options.created?.(at);
          pending.push(name);
        } else if (code === 'ENOTDIR' || code === 'ELOOP') {
          // O_NOFOLLOW | O_DIRECTORY on a symbolic link: ENOTDIR (or ELOOP). Read it and walk its target.
          if (!(await followed(at))) throw error;
        } else {
          throw error;
        }
      }
    }
  }

  /** The components of an absolute path after the workspace root, or undefined when it is not under the root. */
  #underRoot(parts: string[]): string[] | undefined {
    // The root's own components are real directories, so `..` among them is lexical.
    const reached: string[] = [];
    for (const [index, part] of parts.entries()) {
      if (reached.length === this.#rootNames.length) return parts.slice(index);
      if (part === '' || part === '.') continue;
      if (part === '..') reached.pop();
      else if (part === this.#rootNames[reached.length]) reached.push(part);
      else return undefined;
    }
    return reached.length === this.#rootNames.length ? [] : undefined;
  }

  #refuseEscape(path: string): never {
    throw new InvalidRequestError(`path ${quoted(path)} leads outside the workspace through a symbolic link`, { path });
  }

  #lexical(path: string): string {
    if (path.includes('\u0000')) throw new InvalidRequestError(`path ${quoted(path)} contains a NUL byte`, { path });
    if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
      throw new InvalidRequestError(`path ${quoted(path.slice(0, 64))}… is longer than ${MAX_PATH_BYTES} bytes`, { path: path.slice(0, 256) });
    }
    for (const name of path.split('/')) {
      if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
        throw new InvalidRequestError(`path ${quoted(path.slice(0, 64))}… has a name longer than ${MAX_NAME_BYTES} bytes`, {
          path: path.slice(0, 256),
        });
      }
    }
    // The lexical part is the path rule every provider shares.
    return this.#paths.resolve(path);
  }
}

async function lstatIfPresent(at: string): Promise<Stats | undefined> {
  try {
    return await lstat(at);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The target of the symbolic link `at`, or undefined when it is not (or no longer) one. */
async function linkTarget(at: string): Promise<string | undefined> {
  try {
    return await readlink(at);
  } catch (error) {
    if (errorCode(error) === 'EINVAL' || errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
