import { posix } from 'node:path';
import { InvalidRequestError } from './errors/request-errors';

const MAX_PATH_BYTES = 4095;

/**
 * The path rule every provider follows (the conformance suite's "path rule" area): relative
 * paths resolve against the workspace root, absolute ones must lie inside it, `..` is resolved
 * lexically, and a path that leaves the workspace is refused with `InvalidRequestError` naming
 * it — so a caller written against one provider behaves the same on another. The check is
 * lexical: a provider whose workspace is on the host (local) also follows symbolic links; one
 * whose sandbox is the security boundary (E2B) needs only this, to keep answers consistent.
 */
export class WorkspacePaths {
  readonly #prefix: string;

  constructor(readonly root: string) {
    this.#prefix = root === '/' ? '/' : `${root}/`;
  }

  /** The absolute sandbox path of `path`; `InvalidRequestError` naming it when it leaves the workspace. */
  resolve(path: string): string {
    if (path.includes('\0')) throw new InvalidRequestError('a path must not contain NUL bytes', { path });
    if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw new InvalidRequestError(`a path must be at most ${MAX_PATH_BYTES} bytes`, { path });
    const absolute = posix.normalize(posix.isAbsolute(path) ? path : posix.join(this.root, path)).replace(/(.)\/+$/, '$1');
    if (absolute !== this.root && !absolute.startsWith(this.#prefix)) {
      throw new InvalidRequestError(`path ${JSON.stringify(path)} is outside the workspace`, { path });
    }
    return absolute;
  }

  /** The workspace-relative form of `path` ('' for the root), POSIX separators. */
  relative(path: string): string {
    const absolute = this.resolve(path);
    return absolute === this.root ? '' : absolute.slice(this.#prefix.length);
  }
}
