import { type ErrorCode, RuntimectlError } from '@runtimectl/provider';

/** An error as the wire carries it inside a result (an N-way checkout's failed child). */
export interface WireError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * `error` as the wire may show it: a runtimectl error keeps its code, message and (wire-safe)
 * details; anything else is an opaque `internal`, as a 500 is (its message may name internals).
 */
export function wireErrorOf(error: unknown): WireError {
  if (RuntimectlError.isInstance(error) && error.code !== 'internal') {
    return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  }
  return { code: 'internal', message: 'internal error' };
}
