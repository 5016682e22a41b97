import type { RuntimeService, WebhookDirectory } from '@runtimectl/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { ApiKeyVerifier, type AuthOptions } from './auth/api-keys';
import type { IdempotencyOptions } from './idempotency/idempotency-hooks';
import { closeConnectionsNotInFlight } from './graceful-close';
import { CONNECTION_DEFAULTS, connectionsCheckingIntervalMs, limitConnectionsPerAddress, type ConnectionLimits } from './connection-limits';
import { withSecretRedaction } from './logging/log-redaction';
import { RequestLogController } from './logging/request-log-controller';
import { errorReply } from './http-errors/error-reply';
import { answerUnmetExpectation } from './http-errors/unmet-expectation';
import { answerUnparsableRequest } from './http-errors/unparsable-request';
import type { FleetOptions } from './fleet/fleet-options';
import type { EventStreamOptions } from './routes/event-routes';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { DEFAULT_BODY_LIMIT_BYTES, runtimeApiPlugin } from './runtime-api-plugin';
import type { ServerTelemetry } from './telemetry/server-telemetry';

/** Longest path parameter accepted; longer ones are refused with `invalid_request`. */
const MAX_PATH_PARAMETER_LENGTH = 1024;

export interface ServerConfig {
  /** Largest accepted request body in bytes; file bytes travel base64 inside it. Default 10 MiB. */
  bodyLimitBytes?: number;
  /**
   * When set, every route except `GET /api/v1/health` requires `Authorization: Bearer <token>`:
   * the bearer token (an admin key), or an API key whose scopes the route allows (`keys`).
   */
  auth?: AuthOptions;
  /**
   * Without auth, only requests whose `Host` names a loopback address (`localhost`, 127.0.0.0/8,
   * `[::1]`) or one of these names (any port, case-insensitive) are served; others get 421
   * `host_not_allowed`, so a browser page cannot reach the daemon through DNS rebinding. With
   * auth on, Host is not restricted: the token keeps such pages out.
   */
  allowedHosts?: readonly string[];
  /** The daemon's version, reported by `GET /api/v1/health` and in the OpenAPI document. */
  version: string;
  /**
   * Longest time to receive a whole request, headers and body, from its first byte; a slower
   * one is answered 400 `invalid_request` and its connection closed. Default 30 s.
   */
  requestTimeoutMs?: number;
  /** Longest time to receive a request's headers (also from a new connection); ≤ requestTimeoutMs. Default 10 s. */
  headersTimeoutMs?: number;
  /**
   * How long an idle kept-alive connection stays open between requests. Default 65 s: longer than
   * clients keep theirs (undici: 4 s, or the advertised timeout less 2 s), so they close first and
   * never send a request on a connection the server is closing.
   */
  keepAliveTimeoutMs?: number;
  /** Open connections at most; more are closed as they arrive. Default 4,096. */
  maxConnections?: number;
  /**
   * Open connections at most from one source address; more are closed as they arrive. Default
   * 256: local callers all share 127.0.0.1, and no legitimate client holds that many at once.
   */
  maxConnectionsPerAddress?: number;
}

export interface BuildServerOptions {
  service: RuntimeService;
  config: ServerConfig;
  /** A pino logger; the server logs through a child that redacts secrets (see REDACTED_LOG_PATHS). */
  logger: Logger;
  /**
   * The telemetry whose `observer` the service was constructed with (`createServerTelemetry()`).
   * Omitted: the server makes its own, and provider time and operation counts stay empty.
   */
  telemetry?: ServerTelemetry;
  /** Keep responses to requests with an `Idempotency-Key` (see IdempotencyOptions); without it the header is ignored. */
  idempotency?: IdempotencyOptions;
  /** This server as one node of a fleet (see `RuntimeApiPluginOptions.fleet`). */
  fleet?: FleetOptions;
  /** How `GET /events` streams wait and keep alive (see `RuntimeApiPluginOptions.events`). */
  events?: EventStreamOptions;
  /** The configured webhooks and their delivery logs (see `RuntimeApiPluginOptions.webhooks`). */
  webhooks?: WebhookDirectory;
  /** More routes under the API's hooks (see `RuntimeApiPluginOptions.routes`). */
  routes?: readonly FastifyPluginAsync[];
}

/**
 * The runtime API as a fastify app that is built but not listening: call `listen()` (or use
 * `inject()` in tests). `close()` stops accepting and waits for in-flight requests; bound it
 * with a timer if needed. Requests that arrive on kept-alive connections while closing are still
 * served (fastify's own 503 body would not be `{error, code}`).
 */
export function buildServer(options: BuildServerOptions): FastifyInstance {
  const bodyLimit = options.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  assertValidConfig(options.config);
  const limits = connectionLimitsOf(options.config);
  const loggerInstance: FastifyBaseLogger = withSecretRedaction(options.logger);
  const app = Fastify({
    loggerInstance,
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new RequestLogController(),
    bodyLimit,
    return503OnClosing: false,
    // Hostile callers: a request trickled in (headers or body) is cut off, idle sockets do not
    // linger, and the number of connections is capped, in total and per source address.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: connectionsCheckingIntervalMs(limits) },
    // fastify's default (100) refuses path parameters that are valid ids: a runtime id may be
    // 128 characters, a checkout child's 170, more once percent-encoded.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // Requests Node cannot parse, and errors fastify raises before routing (a malformed
    // percent-encoding, an over-long path parameter), get the contract's error body instead of
    // fastify's own shape.
    clientErrorHandler: answerUnparsableRequest,
    frameworkErrors: (error, request, reply) => {
      const { status, body } = errorReply('invalid_request', `malformed request URL (${error.code})`);
      (reply as FastifyReply).code(status).header(REQUEST_ID_HEADER, request.id).send(body);
    },
  });
  // Node answers an `Expect` other than 100-continue itself, before fastify: give it our body.
  app.server.on('checkExpectation', answerUnmetExpectation);
  app.server.maxConnections = limits.maxConnections;
  limitConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);
  // A closing server waits for the requests it is answering, not for idle or silent connections.
  const closeIdleAndSilent = closeConnectionsNotInFlight(app.server);
  app.addHook('preClose', async () => closeIdleAndSilent());
  app.register(runtimeApiPlugin, {
    service: options.service,
    version: options.config.version,
    auth: options.config.auth,
    allowedHosts: options.config.allowedHosts,
    bodyLimitBytes: bodyLimit,
    telemetry: options.telemetry,
    idempotency: options.idempotency,
    fleet: options.fleet,
    events: options.events,
    webhooks: options.webhooks,
    routes: options.routes,
  });
  return app;
}

function connectionLimitsOf(config: ServerConfig): ConnectionLimits {
  const limits: ConnectionLimits = Object.fromEntries(
    Object.entries(CONNECTION_DEFAULTS).map(([key, fallback]) => [key, config[key as keyof ConnectionLimits] ?? fallback]),
  ) as ConnectionLimits;
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new TypeError(`config.headersTimeoutMs (${limits.headersTimeoutMs}) must not exceed config.requestTimeoutMs (${limits.requestTimeoutMs})`);
  }
  return limits;
}

/** Fails fast, naming the key, instead of on the first request or deep inside fastify. */
function assertValidConfig(config: ServerConfig): void {
  for (const key of ['bodyLimitBytes', ...Object.keys(CONNECTION_DEFAULTS)] as const) {
    const value = config[key as keyof ServerConfig];
    if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)) {
      throw new TypeError(`config.${key} must be a positive integer, got ${String(value)}`);
    }
  }
  if (config.auth !== undefined) {
    const { bearerToken, keys } = config.auth;
    if (bearerToken !== undefined && (typeof bearerToken !== 'string' || bearerToken.length === 0)) {
      throw new TypeError('config.auth.bearerToken must be a non-empty string (omit config.auth to disable auth)');
    }
    // Also refuses a key twice, a malformed hash, no scope, and auth with neither token nor key.
    new ApiKeyVerifier(config.auth);
    if (keys !== undefined && !Array.isArray(keys)) throw new TypeError('config.auth.keys must be an array');
  }
  if (typeof config.version !== 'string' || config.version.length === 0) {
    throw new TypeError('config.version must be a non-empty string');
  }
}
