import type { CallOptions } from '@runtimectl/core';
import type { FastifyRequest } from 'fastify';

/** Provider time accumulated by one request while its operation runs. */
export interface RequestTiming {
  providerMs: number;
}

/** Timings by request, across every server in the process (requests are unique objects). */
const timings = new WeakMap<FastifyRequest, RequestTiming>();

/** Starts adding up `request`'s provider time (runtime operations, for `server-timing`). */
export function startProviderTiming(request: FastifyRequest): void {
  timings.set(request, { providerMs: 0 });
}

/** The provider time `request` has spent so far; undefined when it is not being timed. */
export function providerTimeOf(request: FastifyRequest): number | undefined {
  return timings.get(request)?.providerMs;
}

/**
 * What a route handler passes to the service so the operation reports its own provider calls
 * into the request's timing. Explicit per call, not AsyncLocalStorage: on Node 20 an enabled
 * AsyncLocalStorage puts a hook on every promise of every request.
 */
export function providerTimingOf(request: FastifyRequest): CallOptions {
  const timing = timings.get(request);
  if (!timing) return {};
  return {
    onProviderCall: (event) => {
      timing.providerMs += event.durationMs;
    },
  };
}
