import type { CallOptions } from '@runtimectl/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Provider time accumulated by one request while its operation runs. */
export interface RequestTiming {
  providerMs: number;
  /** How long the operation's auto-resume of its paused runtime took; null: it resumed nothing. */
  resumeMs: number | null;
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
  request.runtimectlTiming = { providerMs: 0, resumeMs: null };
}

const formatMs = (ms: number) => (Math.round(ms * 1000) / 1000).toString();

/**
 * `request`'s `server-timing` value: `provider`, then `resume` when the operation auto-resumed
 * its paused runtime first, then `total` (`totalMs`); undefined when it is not being timed.
 */
export function serverTimingOf(request: FastifyRequest, totalMs: number): string | undefined {
  const timing = request.runtimectlTiming;
  if (!timing) return undefined;
  const resume = timing.resumeMs === null ? '' : `, resume;dur=${formatMs(timing.resumeMs)}`;
  return `provider;dur=${formatMs(timing.providerMs)}${resume}, total;dur=${formatMs(totalMs)}`;
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
    onResume: (durationMs) => {
      timing.resumeMs = durationMs;
    },
  };
}
