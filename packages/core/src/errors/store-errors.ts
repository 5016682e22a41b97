import { RuntimectlError } from '@runtimectl/provider';

/**
 * The store cannot be used as it is: a schema newer than this code understands, a file that is
 * not a runtimectl store. The daemon refuses to start with the message; it never reaches HTTP.
 */
export class StoreSchemaError extends RuntimectlError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('internal', message, details === undefined ? {} : { details });
  }
}

/**
 * The store's database cannot be reached right now (stopped, restarting, network cut, every
 * connection of the pool failing). Nothing of the operation was acknowledged; the same request
 * may be sent again after `retryAfterMs` (the HTTP layer answers 503 with Retry-After). The
 * store reconnects by itself once the database is back. The message never holds the URL.
 */
export class StoreUnavailableError extends RuntimectlError {
  constructor(
    reason: string,
    readonly retryAfterMs = 1_000,
  ) {
    super('store_unavailable', `the store's database is unavailable (${reason}); retry shortly`, {
      details: { retry_after_ms: retryAfterMs },
    });
  }
}
