import { ErrorBodySchema, type RuntimeService } from '@runtimectl/core';

/** What every route group receives. */
export interface RouteGroupOptions {
  service: RuntimeService;
}

/** Every error response has the same body; documenting it per status class keeps the spec honest. */
export const ERROR_RESPONSES = { '4xx': ErrorBodySchema, '5xx': ErrorBodySchema } as const;

/** Config of a runtime operation route: authenticated, and answered with `server-timing`. */
export const RUNTIME_OPERATION = { runtimectl: { timing: true } } as const;
