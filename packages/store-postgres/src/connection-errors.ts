import { StoreUnavailableError } from '@runtimectl/core';

/** Socket-level failures: the server is down, restarting, or the network between is cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * SQLSTATEs that mean "the server cannot serve now", not "this statement is wrong": class 08
 * (connection exception), admin/crash shutdown, the server still starting, and no connection
 * slot free.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres' own messages when a connection dies or cannot be opened in time. */
const DRIVER_MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /is not queryable/, /Client was closed/];

/** Why the database is unreachable, in words that never hold the URL, or undefined when it is reachable. */
export function unavailableReason(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return code === 'ECONNREFUSED' ? 'connection refused' : code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return `SQLSTATE ${code}`;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return 'connection lost';
  if (error instanceof AggregateError) return error.errors.map(unavailableReason).find((reason) => reason !== undefined);
  return undefined;
}

/**
 * The error to throw for `error`: StoreUnavailableError when the database is unreachable, else
 * `error` itself. The driver's error is NOT kept as the cause: node-postgres may hang its client
 * (with the connection parameters, password included) on it, and a logged cause would print it.
 */
export function translateConnectionError(error: unknown, retryAfterMs: number): unknown {
  const reason = unavailableReason(error);
  return reason === undefined ? error : new StoreUnavailableError(reason, retryAfterMs);
}
