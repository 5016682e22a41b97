export { buildServer, type BuildServerOptions, type ServerConfig } from './build-server';
export {
  runtimeApiPlugin,
  type RuntimeApiPluginOptions,
  API_PREFIX,
  DEFAULT_BODY_LIMIT_BYTES,
} from './runtime-api-plugin';
export { ERROR_STATUS } from './http-errors/error-status';
export { MAX_JSON_DEPTH } from './json/json-body-parser';
export { toErrorReply } from './http-errors/to-error-reply';
export type { ErrorReply } from './http-errors/error-reply';
export {
  createServerTelemetry,
  ServerTelemetry,
  type ServerTelemetryOptions,
  type RuntimeCountSource,
  type FleetMetricsSource,
  type WorkspaceUsageSource,
} from './telemetry/server-telemetry';
export type { WebhookBacklogSource } from './telemetry/webhook-metrics';
export { providerTimingOf, type RequestTiming } from './provider-timing';
export { bearerCredentials, BearerTokenVerifier } from './auth/bearer-auth';
export { ApiKeyVerifier, grants, type ApiKeyConfig, type AuthenticatedKey, type AuthOptions } from './auth/api-keys';
export { keyVisibility } from './auth/key-visibility';
export { runtimeScopeOf, type RuntimeScopeConfig } from './auth/runtime-scope';
export { IDEMPOTENCY_HEADER, REPLAYED_HEADER, type IdempotencyOptions } from './idempotency/idempotency-hooks';
export { requestIdOf, REQUEST_ID_HEADER } from './request-id';
export { REDACTED_LOG_PATHS, withSecretRedaction } from './logging/log-redaction';
export { turnBatchedDestination, type LogDestination } from './logging/turn-batched-destination';
export type { RuntimectlRouteConfig } from './route-config';
export { isLoopbackHost } from './auth/loopback-host';
export { FORWARDED_BY_HEADER, type FleetNode, type FleetOptions, type HomeNodeSource, type NodeDirectory, type NodeState } from './fleet/fleet-options';
export type { EventStreamOptions } from './routes/event-routes';
export { CONSOLE_CONTENT_SECURITY_POLICY, CONSOLE_PREFIX, consoleRoutes, type ConsoleRoutesOptions } from './console/console-routes';
