import type { ErrorCode } from './error-codes';

const MARKER = Symbol.for('@runtimectl/error');

export interface RuntimectlErrorOptions {
  /** Structured, wire-safe context (ids, zod issues, retry_after_ms …). Never secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Base of every error runtimectl raises on purpose. `code` is stable and machine-readable
 * (the HTTP layer maps it to a status); `message` is for humans; `details` is wire-safe.
 * `isInstance` works across duplicated package copies, where `instanceof` does not.
 */
export class RuntimectlError extends Error {
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Class names from this class up to RuntimectlError, so isInstance needs no prototype identity. */
  readonly kinds: readonly string[];

  constructor(code: ErrorCode, message: string, options: RuntimectlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.name = new.target.name;
    const kinds: string[] = [];
    for (let ctor: unknown = new.target; ctor && ctor !== Error; ctor = Object.getPrototypeOf(ctor)) {
      kinds.push((ctor as { name: string }).name);
    }
    this.kinds = kinds;
  }

  static isInstance<T extends RuntimectlError>(
    this: abstract new (...args: never[]) => T,
    error: unknown,
  ): error is T {
    if (typeof error !== 'object' || error === null || !(error as Record<symbol, unknown>)[MARKER]) return false;
    return (error as RuntimectlError).kinds.includes(this.name);
  }
}
