import type { ErrorCode } from '@runtimectl/core';

/** The exit codes of `runtimectl`, stable across releases (scripts branch on them). */
export const EXIT_CODES = {
  ok: 0,
  /** The daemon answered with an error not covered below (provider failure, 401, 5xx …). */
  failed: 1,
  /** Bad command line or a request the schemas refuse (nothing was changed). */
  usage: 2,
  /** No daemon answered at the URL. */
  unreachable: 3,
  /** Unknown runtime, checkpoint or path, or a checkpoint whose snapshot was deleted. */
  notFound: 4,
  /** The runtime is busy or in the wrong state for the operation (every 409), or the provider or daemon is at capacity (429). */
  conflict: 5,
  /** `exec`: the command ran past its timeout (as coreutils `timeout`). */
  execTimedOut: 124,
} as const;

/** Which exit code each daemon error code maps to; a new code is a compile error until placed. */
const EXIT_CODE_BY_ERROR_CODE: Record<ErrorCode, number> = {
  invalid_request: EXIT_CODES.usage,
  unauthorized: EXIT_CODES.failed,
  forbidden: EXIT_CODES.failed,
  host_not_allowed: EXIT_CODES.failed,
  route_not_found: EXIT_CODES.failed,
  method_not_allowed: EXIT_CODES.failed,
  runtime_not_found: EXIT_CODES.notFound,
  checkpoint_not_found: EXIT_CODES.notFound,
  webhook_not_found: EXIT_CODES.notFound,
  api_key_not_found: EXIT_CODES.notFound,
  path_not_found: EXIT_CODES.notFound,
  checkpoint_snapshot_deleted: EXIT_CODES.notFound,
  manifest_unavailable: EXIT_CODES.conflict,
  session_busy: EXIT_CODES.conflict,
  runtime_paused: EXIT_CODES.conflict,
  runtime_not_paused: EXIT_CODES.conflict,
  runtime_closed: EXIT_CODES.conflict,
  runtime_expired: EXIT_CODES.conflict,
  runtime_failed: EXIT_CODES.conflict,
  runtime_exists: EXIT_CODES.conflict,
  api_key_exists: EXIT_CODES.conflict,
  lease_lost: EXIT_CODES.conflict,
  snapshot_in_use: EXIT_CODES.conflict,
  provider_capacity: EXIT_CODES.conflict,
  too_many_event_streams: EXIT_CODES.conflict,
  payload_too_large: EXIT_CODES.failed,
  idempotency_key_reused: EXIT_CODES.failed,
  idempotent_response_not_kept: EXIT_CODES.failed,
  workspace_quota_exceeded: EXIT_CODES.failed,
  unsupported_backend: EXIT_CODES.failed,
  provider_error: EXIT_CODES.failed,
  checkpoint_verification_failed: EXIT_CODES.failed,
  provider_timeout: EXIT_CODES.failed,
  store_unavailable: EXIT_CODES.failed,
  runtime_on_other_node: EXIT_CODES.failed,
  node_unreachable: EXIT_CODES.failed,
  internal: EXIT_CODES.failed,
};

export function exitCodeForErrorCode(code: ErrorCode): number {
  return EXIT_CODE_BY_ERROR_CODE[code];
}

/** The table printed by `runtimectl --help` and kept in the README. */
export const EXIT_CODE_HELP = `Exit codes:
  0    ok
  1    the operation failed (provider error, unauthorized, unsupported backend, …)
  2    usage: bad arguments or a request the daemon's schemas refuse
  3    the daemon is not reachable at --url / RUNTIMECTL_URL
  4    not found: unknown runtime, checkpoint or path (or the checkpoint's snapshot was deleted)
  5    busy or conflict: an operation is in flight, or the runtime's status forbids it (HTTP 409, 429)
  exec exits with the command's own exit code, and 124 when the command timed out`;
