import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { InvalidRequestError, WorkspacePaths } from '@runtimectl/core';
import { errorCode, fileSystemError } from './fs-errors';

/** Linux limits: a name of at most 255 bytes, a path of at most 4,095. */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4095;
/** As the kernel's ELOOP limit: more symbolic links than this in one path is refused. */
const MAX_SYMLINK_HOPS = 40;

const quoted = (path: string) => JSON.stringify(path);

/**
 * Confines file-API paths to one workspace directory. A path (relative to the workspace, or
 * absolute) is first resolved lexically by core's `WorkspacePaths` (the path rule every provider
 * shares: `..` that climbs out, or an absolute path elsewhere, is refused), then physically:
 * every symbolic link along it is followed (including a dangling one, which a write would
 * follow) and the result must still be inside the workspace. Callers operate
 * on the returned physical path, which contains no symbolic links, and open its last component
 * with O_NOFOLLOW, so a link swapped in after the check is refused rather than followed.
 * Every refusal is `InvalidRequestError` naming the caller's path.
 */
export class WorkspaceJail {
  readonly #paths: WorkspacePaths;

  /** `root` must already be a real path (no symbolic links in it). */
  constructor(readonly root: string) {
    this.#paths = new WorkspacePaths(root);
  }

  /** The physical absolute path of `path`, inside the workspace. Throws `InvalidRequestError`. */
  async resolve(path: string): Promise<string> {
    const lexical = this.#lexical(path);
    let physical: string;
    try {
      physical = await physicalPath(lexical, 0);
    } catch (error) {
      if (errorCode(error) === 'ELOOP') throw new InvalidRequestError(`path ${quoted(path)} has too many symbolic links`, { path });
      // Node's own message names the absolute host path (`realpath '/…/workspaces/bkd_…/…'`,
      // e.g. ENAMETOOLONG for a path that passes PATH_MAX once the workspace root is in front):
      // the public error names the caller's path only; the host path stays in the cause.
      throw fileSystemError(error, path, 'resolve_path', true);
    }
    if (!this.contains(physical)) {
      throw new InvalidRequestError(`path ${quoted(path)} leads outside the workspace through a symbolic link`, { path });
    }
    return physical;
  }

  /** Workspace-relative POSIX path of a physical path inside the workspace ('' for the root). */
  relative(physical: string): string {
    return relative(this.root, physical).split(sep).join('/');
  }

  contains(physical: string): boolean {
    return physical === this.root || physical.startsWith(this.root.endsWith(sep) ? this.root : `${this.root}${sep}`);
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

/**
 * Where the kernel would end up for `absolute`: the real path of its deepest existing ancestor
 * with the missing rest appended. A dangling symbolic link is followed to its target, because
 * creating the entry would create the target.
 */
async function physicalPath(absolute: string, hops: number): Promise<string> {
  const missing: string[] = [];
  for (let existing = absolute; ; existing = dirname(existing)) {
    try {
      return join(await realpath(existing), ...missing);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const target = await danglingLinkTarget(existing);
    if (target !== undefined) {
      if (hops >= MAX_SYMLINK_HOPS) throw Object.assign(new Error('too many symbolic links'), { code: 'ELOOP' });
      return physicalPath(join(resolve(dirname(existing), target), ...missing), hops + 1);
    }
    if (dirname(existing) === existing) return join(existing, ...missing);
    missing.unshift(basename(existing));
  }
}

async function danglingLinkTarget(path: string): Promise<string | undefined> {
  try {
    return (await lstat(path)).isSymbolicLink() ? await readlink(path) : undefined;
  } catch {
    return undefined;
  }
}
