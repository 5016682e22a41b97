import type { CallOptions } from '@runtimectl/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Provider time accumulated by one request while its operation runs. */
export interface RequestTiming {
  providerMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for runtime operations (see `startProviderTiming`); null or absent otherwise. */
    runtimectlTiming?: RequestTiming | null;
  }
}

/**
 * Declares the per-request timing slot on `app`'s requests. A decorated property, not a
 * WeakMap keyed by request: a WeakMap entry per request cost ~1 µs to insert plus ephemeron
 * work in every garbage collection.
 */
export function decorateProviderTiming(app: FastifyInstance): void {
  app.decorateRequest('runtimectlTiming', null);
}

/** Starts adding up `request`'s provider time (runtime operations, for `server-timing`). */
export function startProviderTiming(request: FastifyRequest): void {
  request.runtimectlTiming = { providerMs: 0 };
}

/** The provider time `request` has spent so far; undefined when it is not being timed. */
export function providerTimeOf(request: FastifyRequest): number | undefined {
  return request.runtimectlTiming?.providerMs;
}

/**
 * What a route handler passes to the service so the operation reports its own provider calls
 * into the request's timing. Explicit per call, not AsyncLocalStorage: on Node 20 an enabled
 * AsyncLocalStorage puts a hook on every promise of every request.
 */
export function providerTimingOf(request: FastifyRequest): CallOptions {
  const timing = request.runtimectlTiming;
  if (!timing) return {};
  return {
    onProviderCall: (event) => {
      timing.providerMs += event.durationMs;
    },
  };
}
