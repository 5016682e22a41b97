import { RuntimectlError } from './runtimectl-error';

/** The request is malformed: bad field, bad base64, a path outside the workspace … */
export class InvalidRequestError extends RuntimectlError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('invalid_request', message, details === undefined ? {} : { details });
  }
}

/**
 * A file is larger than read-file answers (`maxBytes`, configurable). Providers raise it after
 * reading at most `maxBytes + 1` bytes, so neither a huge file nor an endless special file is
 * ever held whole. The message points to `export`, which streams.
 */
export class FileTooLargeError extends RuntimectlError {
  constructor(path: string, maxBytes: number) {
    super('payload_too_large', `${path} is larger than the ${maxBytes}-byte read-file limit: download it with export, which streams`, {
      details: { path, max_bytes: maxBytes },
    });
  }
}

/**
 * A write (or a command) would take a runtime's workspace over its disk quota. `details` holds
 * the request's workspace path (never a host path) and the quota; nothing was written.
 */
export class WorkspaceQuotaExceededError extends RuntimectlError {
  constructor(message: string, details: { path?: string; quota_bytes: number; quota_inodes?: number }) {
    super('workspace_quota_exceeded', message, { details });
  }
}

/** A file or directory the operation needs does not exist in the runtime's workspace. */
export class PathNotFoundError extends RuntimectlError {
  constructor(readonly path: string) {
    super('path_not_found', `path not found: ${path}`, { details: { path } });
  }
}
