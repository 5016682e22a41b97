import type { ErrorBody, ErrorCode } from '@runtimectl/core';
import { ERROR_STATUS } from './error-status';

/** A fully decided error response: status, body and any extra headers. */
export interface ErrorReply {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

export function errorReply(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers: Record<string, string> = {},
): ErrorReply {
  return {
    status: ERROR_STATUS[code],
    body: details === undefined ? { error: message, code } : { error: message, code, details },
    headers,
  };
}
