import { closeSync, constants, openSync } from 'node:fs';
import { fsPathOf } from '@runtimectl/provider';

/** Opens a directory for a walk by descriptor, never through a link. */
export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

const isWithin = (path: string, ancestor: string) => ancestor === '' || path === ancestor || path.startsWith(`${ancestor}/`);

/**
 * The directories along one path below a root, held open, so that every path made under the
 * root is short — `/proc/self/fd/<n>/<name>` whatever the depth: a tree deeper than PATH_MAX
 * restores (issue 34; a path string past 4,096 bytes fails with ENAMETOOLONG). Moving to another
 * directory closes those no longer on the way and opens the new ones (never following a link),
 * so a walk in manifest order (parents first, depth first) opens each directory once. Names are
 * bytes: an escaped one (`nameFromBytes`) is made under its exact bytes.
 */
export class DirectoryCursor {
  readonly #open: { path: string; fd: number }[];

  constructor(root: string) {
    this.#open = [{ path: '', fd: openSync(root, DIRECTORY_FLAGS) }];
  }

  /** A short path for the workspace-relative `path` (not the root), valid until the cursor moves again. */
  pathOf(path: string): string | Buffer {
    const slash = path.lastIndexOf('/');
    const fd = this.#directory(slash < 0 ? '' : path.slice(0, slash));
    return fsPathOf(`/proc/self/fd/${fd}/${path.slice(slash + 1)}`);
  }

  /** Closes every directory it holds. */
  close(): void {
    for (const { fd } of this.#open.splice(0)) closeSync(fd);
  }

  #directory(path: string): number {
    while (!isWithin(path, this.#top.path)) closeSync(this.#open.pop()!.fd);
    while (this.#top.path !== path) {
      const top = this.#top;
      const rest = top.path === '' ? path : path.slice(top.path.length + 1);
      const segment = rest.split('/', 1)[0]!;
      const fd = openSync(fsPathOf(`/proc/self/fd/${top.fd}/${segment}`), DIRECTORY_FLAGS);
      this.#open.push({ path: top.path === '' ? segment : `${top.path}/${segment}`, fd });
    }
    return this.#top.fd;
  }

  get #top(): { path: string; fd: number } {
    return this.#open[this.#open.length - 1]!;
  }
}

/** Runs `use` with a cursor at `root`, closed whatever happens. */
export async function withCursor<T>(root: string, use: (cursor: DirectoryCursor) => Promise<T>): Promise<T> {
  const cursor = new DirectoryCursor(root);
  try {
    return await use(cursor);
  } finally {
    cursor.close();
  }
}
