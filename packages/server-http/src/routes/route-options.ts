import { ErrorBodySchema, type RuntimeService } from '@runtimectl/core';

/** What every route group receives. */
export interface RouteGroupOptions {
  service: RuntimeService;
}

/** Every error response has the same body; documenting it per status class keeps the spec honest. */
export const ERROR_RESPONSES = { '4xx': ErrorBodySchema, '5xx': ErrorBodySchema } as const;

/**
 * Config of a runtime operation that changes state: authenticated (a key needs `scope`),
 * answered with `server-timing`, and honouring `Idempotency-Key`.
 */
export const runtimeOperation = (scope: 'exec' | 'checkpoint' | 'admin') => ({ runtimectl: { timing: true, idempotent: true, scope } }) as const;

/** A runtime operation that only reads: repeating it is harmless, so no response is kept. */
export const READ_OPERATION = { runtimectl: { timing: true, scope: 'read' } } as const;

/** A route any key may read. */
export const READ_ROUTE = { runtimectl: { scope: 'read' } } as const;

/** A route for `admin` keys only (the daemon's settings, other callers' business). */
export const ADMIN_ROUTE = { runtimectl: { scope: 'admin' } } as const;
