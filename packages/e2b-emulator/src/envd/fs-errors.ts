/** Maps host filesystem errors (errno) to what envd answers: an HTTP status and a Connect code. */
import { ApiError } from '../http/api-error.js';
import { ConnectRpcError, type ConnectCode } from './connect-framing.js';

interface Mapped {
  status: number;
  code: ConnectCode;
  message: string;
}

function mapFsError(error: unknown, sandboxPath: string): Mapped | undefined {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (errno) {
    case 'ENOENT':
      return { status: 404, code: 'not_found', message: `path '${sandboxPath}' does not exist` };
    case 'EEXIST':
      return { status: 409, code: 'already_exists', message: `path '${sandboxPath}' already exists` };
    case 'ENOTDIR':
      return { status: 400, code: 'invalid_argument', message: `a parent of '${sandboxPath}' is not a directory` };
    case 'EISDIR':
      return { status: 400, code: 'invalid_argument', message: `path '${sandboxPath}' is a directory` };
    case 'ENOTEMPTY':
      return { status: 400, code: 'invalid_argument', message: `directory '${sandboxPath}' is not empty` };
    case 'EACCES':
    case 'EPERM':
      return { status: 403, code: 'permission_denied', message: `permission denied for '${sandboxPath}'` };
    case 'ENOSPC':
      return { status: 507, code: 'resource_exhausted', message: 'not enough disk space' };
    default:
      return undefined;
  }
}

/** A Connect error for a failed filesystem call; unknown errors are rethrown as `internal`. */
export function connectErrorOfFsError(error: unknown, sandboxPath: string): ConnectRpcError {
  if (error instanceof ConnectRpcError) return error;
  const mapped = mapFsError(error, sandboxPath);
  if (mapped) return new ConnectRpcError(mapped.code, mapped.message);
  return new ConnectRpcError('internal', error instanceof Error ? error.message : String(error));
}

/** An `{code, message}` REST error for a failed `/files` call. */
export function apiErrorOfFsError(error: unknown, sandboxPath: string): ApiError {
  if (error instanceof ApiError) return error;
  const mapped = mapFsError(error, sandboxPath);
  if (mapped) return new ApiError(mapped.status, mapped.message);
  return new ApiError(500, error instanceof Error ? error.message : String(error));
}
