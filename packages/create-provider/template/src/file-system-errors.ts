import { InvalidRequestError, PathNotFoundError, ProviderError, RuntimectlError } from '@runtimectl/provider';

export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/** What a caller is told about a file-system error, by errno. Node's own message names the host path: never shown. */
const REFUSALS: Record<string, (path: string) => string> = {
  EISDIR: (path) => `${path} is a directory`,
  EEXIST: (path) => `${path} already exists and is not a directory`,
  ELOOP: (path) => `${path} is a symbolic link`,
  ENAMETOOLONG: (path) => `${path} is too long`,
};

/**
 * The error a caller gets for `error`, raised by an operation on `path` (as the caller wrote it).
 * Errors the contract defines pass through. `readLike`: for a read, a file standing where a
 * directory should be means the path does not exist; for a write it is a request that cannot be
 * met. Anything unexpected becomes a `ProviderError` whose message names the errno and the
 * caller's path; node's message, with the host path, stays in the cause for the daemon's log.
 */
export function fileSystemError(providerId: string, call: string, path: string, error: unknown, readLike: boolean): Error {
  if (RuntimectlError.isInstance(error)) return error;
  const code = errorCode(error) ?? '';
  if (code === 'ENOENT' || (code === 'ENOTDIR' && readLike)) return new PathNotFoundError(path);
  if (code === 'ENOTDIR') return new InvalidRequestError(`${path}: a parent of this path is not a directory`, { path });
  const refusal = REFUSALS[code];
  if (refusal) return new InvalidRequestError(refusal(path), { path });
  return new ProviderError(providerId, call, `${code || 'unexpected error'} on ${path}`, error);
}

/** The file API reads and writes regular files only: a FIFO, socket or device could block or never end. */
export function notRegularFileError(path: string): InvalidRequestError {
  return new InvalidRequestError(`${path} is not a regular file`, { path });
}
