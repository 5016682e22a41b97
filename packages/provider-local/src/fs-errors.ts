import { BackendGoneError, InvalidRequestError, PathNotFoundError, ProviderError } from '@runtimectl/provider';

export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

/**
 * Turns a file-system error on `path` (as the caller wrote it) into core's errors. The message
 * names the caller's path only, never the host path of the workspace. `missingParentIsNotFound`:
 * for reads a file standing where a directory should be means "not found"; for writes it is a
 * request that cannot be satisfied. `providerId`: the provider whose backend it is (local, or one composing it).
 */
export function fileSystemError(providerId: string, error: unknown, path: string, call: string, missingParentIsNotFound: boolean): Error {
  switch (errorCode(error)) {
    case 'ENOENT':
      return new PathNotFoundError(path);
    case 'ENOTDIR':
      return missingParentIsNotFound
        ? new PathNotFoundError(path)
        : new InvalidRequestError(`${path}: a parent of this path is not a directory`, { path });
    case 'EISDIR':
      return new InvalidRequestError(`${path} is a directory`, { path });
    case 'EEXIST':
      return new InvalidRequestError(`${path} already exists and is not a directory`, { path });
    case 'ENXIO':
      // Opening a FIFO for writing with no reader (O_NONBLOCK), or a socket.
      return notRegularFileError(path);
    case 'ELOOP':
      return new InvalidRequestError(`${path} is a symbolic link (refused inside the workspace jail)`, { path });
    case 'ENAMETOOLONG':
      return new InvalidRequestError(`${path} is too long`, { path });
    default:
      return new ProviderError(providerId, call, `${errorCode(error) ?? 'error'} on ${path}`, error);
  }
}

/** The file API works on regular files only: never a FIFO, socket or device, which could block or never end. */
export function notRegularFileError(path: string): InvalidRequestError {
  return new InvalidRequestError(`${path} is not a regular file (FIFO, socket or device)`, { path });
}

/**
 * The workspace directory vanished. The message is public, so it names no host path; the
 * directory is in the cause, for the log.
 */
export function workspaceGoneError(providerId: string, call: string, directory: string): BackendGoneError {
  return new BackendGoneError(providerId, call, 'the workspace directory no longer exists', new Error(`${providerId} workspace ${directory} no longer exists`));
}
