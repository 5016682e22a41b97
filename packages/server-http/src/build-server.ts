import type { RuntimeService } from '@runtimectl/core';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { IdempotencyOptions } from './idempotency/idempotency-hooks';
import { withSecretRedaction } from './logging/log-redaction';
import { RequestLogController } from './logging/request-log-controller';
import { errorReply } from './http-errors/error-reply';
import { answerUnparsableRequest } from './http-errors/unparsable-request';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { DEFAULT_BODY_LIMIT_BYTES, runtimeApiPlugin } from './runtime-api-plugin';
import type { ServerTelemetry } from './telemetry/server-telemetry';

/** Longest path parameter accepted; longer ones are refused with `invalid_request`. */
const MAX_PATH_PARAMETER_LENGTH = 1024;

export interface ServerConfig {
  /** Largest accepted request body in bytes; file bytes travel base64 inside it. Default 10 MiB. */
  bodyLimitBytes?: number;
  /** When set, every route except `GET /api/v1/health` requires `Authorization: Bearer <bearerToken>`. */
  auth?: { bearerToken: string };
  /**
   * Without auth, only requests whose `Host` names a loopback address (`localhost`, 127.0.0.0/8,
   * `[::1]`) or one of these names (any port, case-insensitive) are served; others get 421
   * `host_not_allowed`, so a browser page cannot reach the daemon through DNS rebinding. With
   * auth on, Host is not restricted: the token keeps such pages out.
   */
  allowedHosts?: readonly string[];
  /** The daemon's version, reported by `GET /api/v1/health` and in the OpenAPI document. */
  version: string;
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
  const loggerInstance: FastifyBaseLogger = withSecretRedaction(options.logger);
  const app = Fastify({
    loggerInstance,
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new RequestLogController(),
    bodyLimit,
    return503OnClosing: false,
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
  app.register(runtimeApiPlugin, {
    service: options.service,
    version: options.config.version,
    auth: options.config.auth,
    allowedHosts: options.config.allowedHosts,
    bodyLimitBytes: bodyLimit,
    telemetry: options.telemetry,
    idempotency: options.idempotency,
  });
  return app;
}

/** Fails fast, naming the key, instead of on the first request or deep inside fastify. */
function assertValidConfig(config: ServerConfig): void {
  if (config.bodyLimitBytes !== undefined && (!Number.isSafeInteger(config.bodyLimitBytes) || config.bodyLimitBytes <= 0)) {
    throw new TypeError(`config.bodyLimitBytes must be a positive integer, got ${String(config.bodyLimitBytes)}`);
  }
  if (config.auth !== undefined && (typeof config.auth.bearerToken !== 'string' || config.auth.bearerToken.length === 0)) {
    throw new TypeError('config.auth.bearerToken must be a non-empty string (omit config.auth to disable auth)');
  }
  if (typeof config.version !== 'string' || config.version.length === 0) {
    throw new TypeError('config.version must be a non-empty string');
  }
}
