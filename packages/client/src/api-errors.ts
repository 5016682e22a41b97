import { RuntimectlError, type ErrorCode } from '@runtimectl/core';

export interface ApiErrorInit {
  message: string;
  code: ErrorCode;
  status: number;
  details?: Record<string, unknown>;
  requestId?: string;
  retryAfterMs?: number;
}

/**
 * An error answered by the daemon: the server's `code`, `details`, HTTP `status` and the
 * `x-request-id` to quote in a bug report. Extends core's RuntimectlError, so
 * `SessionBusyError.isInstance(e)` from @runtimectl/core recognises the client's too.
 */
export class RuntimectlApiError extends RuntimectlError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** From `Retry-After` (or `details.retry_after_ms`) when the daemon said when to retry. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, init.message, init.details === undefined ? {} : { details: init.details });
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class InvalidRequestError extends RuntimectlApiError {}
export class UnauthorizedError extends RuntimectlApiError {}
/** 403: the key is valid but lacks the scope the route needs (`details.scope`). */
export class ForbiddenError extends RuntimectlApiError {}
export class HostNotAllowedError extends RuntimectlApiError {}
export class RouteNotFoundError extends RuntimectlApiError {}
/** 405: the path is served, under other methods (`details.allow`). */
export class MethodNotAllowedError extends RuntimectlApiError {}
export class RuntimeNotFoundError extends RuntimectlApiError {}
export class CheckpointNotFoundError extends RuntimectlApiError {}
export class PathNotFoundError extends RuntimectlApiError {}
export class SessionBusyError extends RuntimectlApiError {}
export class RuntimePausedError extends RuntimectlApiError {}
export class RuntimeNotPausedError extends RuntimectlApiError {}
export class RuntimeClosedError extends RuntimectlApiError {}
/** 409: the runtime's TTL has passed (`details.expires_at_ms`); the daemon is closing it. */
export class RuntimeExpiredError extends RuntimectlApiError {}
export class RuntimeFailedError extends RuntimectlApiError {}
export class RuntimeExistsError extends RuntimectlApiError {}
export class SnapshotInUseError extends RuntimectlApiError {}
export class CheckpointSnapshotDeletedError extends RuntimectlApiError {}
export class ManifestUnavailableError extends RuntimectlApiError {}
/** A restored workspace differed from its checkpoint's manifest (`details.differing_paths`). */
export class CheckpointVerificationFailedError extends RuntimectlApiError {}
export class PayloadTooLargeError extends RuntimectlApiError {}
export class IdempotencyKeyReusedError extends RuntimectlApiError {}
export class IdempotentResponseNotKeptError extends RuntimectlApiError {}
export class WorkspaceQuotaExceededError extends RuntimectlApiError {}
export class ProviderCapacityError extends RuntimectlApiError {}
/** 429: the daemon has as many event streams open as it allows (in all, or from this address: `details.scope`). */
export class TooManyEventStreamsError extends RuntimectlApiError {}
export class UnsupportedBackendError extends RuntimectlApiError {}
export class ProviderError extends RuntimectlApiError {}
export class ProviderTimeoutError extends RuntimectlApiError {}
/** 503: the daemon's database is unreachable for now; retry after `retryAfterMs`. */
export class StoreUnavailableError extends RuntimectlApiError {}
export class LeaseLostError extends RuntimectlApiError {}
export class RuntimeOnOtherNodeError extends RuntimectlApiError {}
export class NodeUnreachableError extends RuntimectlApiError {}
export class InternalServerError extends RuntimectlApiError {}
export class WebhookNotFoundError extends RuntimectlApiError {}
/** 404: no stored API key has this name. */
export class ApiKeyNotFoundError extends RuntimectlApiError {}
/** 409: a key with this name (stored or configured) already exists. */
export class ApiKeyExistsError extends RuntimectlApiError {}

/** One class per server code; the Record type makes a new code a compile error until mapped. */
const ERROR_CLASSES: Record<ErrorCode, new (init: ApiErrorInit) => RuntimectlApiError> = {
  invalid_request: InvalidRequestError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  host_not_allowed: HostNotAllowedError,
  route_not_found: RouteNotFoundError,
  method_not_allowed: MethodNotAllowedError,
  runtime_not_found: RuntimeNotFoundError,
  checkpoint_not_found: CheckpointNotFoundError,
  webhook_not_found: WebhookNotFoundError,
  api_key_not_found: ApiKeyNotFoundError,
  path_not_found: PathNotFoundError,
  session_busy: SessionBusyError,
  runtime_paused: RuntimePausedError,
  runtime_not_paused: RuntimeNotPausedError,
  runtime_closed: RuntimeClosedError,
  runtime_expired: RuntimeExpiredError,
  runtime_failed: RuntimeFailedError,
  runtime_exists: RuntimeExistsError,
  api_key_exists: ApiKeyExistsError,
  snapshot_in_use: SnapshotInUseError,
  checkpoint_snapshot_deleted: CheckpointSnapshotDeletedError,
  manifest_unavailable: ManifestUnavailableError,
  checkpoint_verification_failed: CheckpointVerificationFailedError,
  payload_too_large: PayloadTooLargeError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  idempotent_response_not_kept: IdempotentResponseNotKeptError,
  workspace_quota_exceeded: WorkspaceQuotaExceededError,
  provider_capacity: ProviderCapacityError,
  too_many_event_streams: TooManyEventStreamsError,
  unsupported_backend: UnsupportedBackendError,
  provider_error: ProviderError,
  provider_timeout: ProviderTimeoutError,
  store_unavailable: StoreUnavailableError,
  lease_lost: LeaseLostError,
  runtime_on_other_node: RuntimeOnOtherNodeError,
  node_unreachable: NodeUnreachableError,
  internal: InternalServerError,
};

export function apiErrorFor(init: ApiErrorInit): RuntimectlApiError {
  return new ERROR_CLASSES[init.code](init);
}

/** The daemon could not be reached at all (connection refused, DNS, reset before a response). */
export class DaemonUnreachableError extends Error {
  /**
   * `requestMayHaveRun`: a POST reached the daemon (an attempt's connection broke after it was
   * sent, not refused), so its operation may have run; `idempotencyKey` is the key the request was
   * sent with: sending the same request with it again runs it at most once.
   */
  constructor(
    readonly url: string,
    cause: unknown,
    readonly requestMayHaveRun = false,
    readonly idempotencyKey?: string,
  ) {
    super(`runtimectl daemon not reachable at ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DaemonUnreachableError';
  }
}

/** No response within the client's timeout. The request may still have been carried out. */
export class ClientTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`no response from ${url} within ${timeoutMs} ms`);
    this.name = 'ClientTimeoutError';
  }
}
