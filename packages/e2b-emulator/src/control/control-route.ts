/**
 * Wraps a control-plane handler: API-key check (any key is accepted, a missing one is 401
 * like E2B), then the operation's knobs (count, hang, latency, injected failure); every call
 * is recorded in the call log with its start, end and status.
 */
import type { EmulatorContext } from '../emulator-context.js';
import { ApiError } from '../http/api-error.js';
import { headerValue, sendApiError } from '../http/http-io.js';
import type { RouteContext, RouteHandler } from '../http/route-table.js';
import { preciseNowMs, type CallInFlight } from '../knobs/call-log.js';
import type { EmulatorOperation } from '../knobs/operations.js';

/** A control-plane handler; it may fill in `call` (create names the sandbox it made). */
export type ControlHandler = (route: RouteContext, call: CallInFlight) => Promise<void>;

export function controlRoute(
  context: EmulatorContext,
  operation: EmulatorOperation,
  handler: ControlHandler,
  /** The handler spends the operation's latency itself (`knobs.spendLatency`), inside the operation. */
  options: { latencyInHandler?: boolean } = {},
): RouteHandler {
  return async (route: RouteContext) => {
    const call = startCall(context, operation, route);
    try {
      if (!hasCredentials(route)) throw new ApiError(401, 'Invalid API key, please provide X-API-KEY header');
      const admission = await context.knobs.admit(operation, options);
      if (admission.kind === 'fail') throw new ApiError(admission.status, admission.message);
      await handler(route, call);
    } catch (error) {
      if (error instanceof ApiError) sendApiError(route.res, error);
      else throw error;
    } finally {
      context.calls.add(call, route.res.statusCode);
    }
  };
}

function startCall(context: EmulatorContext, operation: EmulatorOperation, { params }: RouteContext): CallInFlight {
  const sandboxId = params.sandboxID ?? null;
  const sandbox = sandboxId === null ? undefined : context.sandboxes.get(sandboxId);
  return {
    operation,
    sandboxId,
    templateId: params.templateID ?? null,
    metadata: { ...(sandbox?.metadata ?? {}) },
    startedAtMs: preciseNowMs(),
  };
}

function hasCredentials(route: RouteContext): boolean {
  const apiKey = headerValue(route.req, 'x-api-key');
  if (apiKey && apiKey.trim().length > 0) return true;
  // E2B also accepts a user access token as a bearer token.
  const authorization = headerValue(route.req, 'authorization');
  return authorization !== undefined && /^Bearer\s+\S+/i.test(authorization);
}

/** E2B's concurrency-limit answer (HTTP 429), on create and on connect that resumes. */
export function concurrencyLimitError(maxSandboxes: number): ApiError {
  return new ApiError(
    429,
    `you have reached the maximum number of concurrent E2B sandboxes (${maxSandboxes}). ` +
      'If you need more, please contact E2B about your plan',
  );
}

/** Throws the 429 when starting one more running sandbox would pass the limit. */
export function assertCapacity(context: EmulatorContext): void {
  const max = context.knobs.maxSandboxes;
  if (max !== null && context.sandboxes.runningCount() >= max) throw concurrencyLimitError(max);
}
