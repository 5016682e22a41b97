/**
 * Every stable error code runtimectl puts on the wire. The HTTP layer maps each to a status;
 * a test keeps this list, that mapping and docs/http-api.md in sync.
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'host_not_allowed',
  'route_not_found',
  'method_not_allowed',
  'runtime_not_found',
  'checkpoint_not_found',
  'webhook_not_found',
  'path_not_found',
  'session_busy',
  'runtime_paused',
  'runtime_not_paused',
  'runtime_closed',
  'runtime_expired',
  'runtime_failed',
  'runtime_exists',
  'snapshot_in_use',
  'checkpoint_snapshot_deleted',
  'manifest_unavailable',
  'checkpoint_verification_failed',
  'idempotent_response_not_kept',
  'payload_too_large',
  'idempotency_key_reused',
  'provider_capacity',
  'too_many_event_streams',
  'workspace_quota_exceeded',
  'unsupported_backend',
  'provider_error',
  'provider_timeout',
  'lease_lost',
  'runtime_on_other_node',
  'node_unreachable',
  'store_unavailable',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
