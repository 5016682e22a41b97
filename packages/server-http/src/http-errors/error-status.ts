import type { ErrorCode } from '@runtimectl/core';

/**
 * The HTTP status of every stable error code: the only place a code meets a status.
 * `docs/http-api.md` documents the same table; a test keeps both in step with core's ERROR_CODES.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  host_not_allowed: 421,
  route_not_found: 404,
  method_not_allowed: 405,
  runtime_not_found: 404,
  checkpoint_not_found: 404,
  webhook_not_found: 404,
  path_not_found: 404,
  session_busy: 409,
  runtime_paused: 409,
  runtime_not_paused: 409,
  runtime_closed: 409,
  runtime_expired: 409,
  runtime_failed: 409,
  runtime_exists: 409,
  lease_lost: 409,
  snapshot_in_use: 409,
  manifest_unavailable: 409,
  checkpoint_snapshot_deleted: 410,
  idempotent_response_not_kept: 410,
  payload_too_large: 413,
  workspace_quota_exceeded: 413,
  idempotency_key_reused: 422,
  provider_capacity: 429,
  too_many_event_streams: 429,
  internal: 500,
  unsupported_backend: 501,
  provider_error: 502,
  checkpoint_verification_failed: 502,
  store_unavailable: 503,
  runtime_on_other_node: 503,
  node_unreachable: 503,
  provider_timeout: 504,
});
