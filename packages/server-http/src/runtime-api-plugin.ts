import type { RuntimeService, WebhookDirectory } from '@runtimectl/core';
import type { FastifyPluginAsync } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { API_PREFIX } from './api-prefix';
import { ApiKeyVerifier, type AuthOptions } from './auth/api-keys';
import { installRuntimeScopeHook } from './auth/runtime-scope-hook';
import type { FleetOptions } from './fleet/fleet-options';
import { installForwardingHook } from './fleet/forwarding-hook';
import { installPeerAuthHooks } from './fleet/peer-auth-hooks';
import { PeerRequestVerifier } from './fleet/peer-request-verifier';
import { installErrorHandlers } from './http-errors/error-handlers';
import { installMethodNotAllowed } from './http-errors/method-not-allowed';
import { installJsonBodyParser } from './json/json-body-parser';
import { responseSerializerCompiler } from './json/response-serializer';
import { registerOpenApi } from './openapi/openapi-routes';
import { installIdempotencyHooks, type IdempotencyOptions } from './idempotency/idempotency-hooks';
import { installRequestHooks } from './request-hooks';
import { apiKeyRoutes } from './routes/api-key-routes';
import { checkpointRoutes } from './routes/checkpoint-routes';
import { dataRoutes } from './routes/data-routes';
import { eventRoutes, type EventStreamOptions } from './routes/event-routes';
import { fleetRoutes } from './routes/fleet-routes';
import { retentionRoutes } from './routes/retention-routes';
import { runtimeRoutes } from './routes/runtime-routes';
import { serviceRoutes } from './routes/service-routes';
import { ADMIN_ROUTE } from './routes/route-options';
import { webhookRoutes } from './routes/webhook-routes';
import { createServerTelemetry, type ServerTelemetry } from './telemetry/server-telemetry';

export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
export { API_PREFIX } from './api-prefix';

export interface RuntimeApiPluginOptions {
  service: RuntimeService;
  /** Reported by `GET /api/v1/health` and the OpenAPI document. */
  version: string;
  /**
   * More routes the embedding app serves under the same hooks (auth and scopes, the Host check,
   * request ids, the error handler), e.g. runtimed's `/mcp`. Each names its scope in its config;
   * they are left out of the OpenAPI document.
   */
  routes?: readonly FastifyPluginAsync[] | undefined;
  /**
   * When set, every route but `GET /api/v1/health` needs `Authorization: Bearer <token>`: the
   * bearer token, or an API key whose scopes the route allows (see API_KEY_SCOPES).
   */
  auth?: AuthOptions | undefined;
  /**
   * Without auth, the host names (besides loopback ones) a request's `Host` may name, any port;
   * other requests get 421 `host_not_allowed` (DNS rebinding). Ignored with auth on.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Largest accepted request body per route, in bytes; 413 `payload_too_large` beyond. Default 10 MiB. */
  bodyLimitBytes?: number | undefined;
  /**
   * The telemetry whose `observer` the service was built with. Without it the plugin makes its
   * own: request metrics still work, but provider time and operation counts stay empty.
   */
  telemetry?: ServerTelemetry | undefined;
  /**
   * Where responses to requests with an `Idempotency-Key` are kept (the daemon's store). Without
   * it the header is ignored and a retried request runs again.
   */
  idempotency?: IdempotencyOptions | undefined;
  /**
   * This server as one node of a fleet: `GET /nodes` and `GET /ready`, forwarding of requests
   * for runtimes home on other nodes, Idempotency-Key claims owned by the node id (a dead node's
   * are taken over), and the `node_info` / `fleet_nodes` metrics. Without it: none of these.
   */
  fleet?: FleetOptions | undefined;
  /** How `GET /events` streams wait and keep alive (defaults: read again every 250 ms, a keepalive after 15 s idle). */
  events?: EventStreamOptions | undefined;
  /** What `GET /webhooks` and `GET /webhooks/{id}/deliveries` show (the daemon's delivery engine). Without it: no webhooks. */
  webhooks?: WebhookDirectory | undefined;
}

/** Idempotency-Key claims owned by the node, taken over from nodes that are not alive. */
function idempotencyOfNode(idempotency: IdempotencyOptions, fleet: FleetOptions | undefined): IdempotencyOptions {
  if (!fleet) return idempotency;
  const isOwnerAlive = async (ownerId: string) =>
    (await fleet.directory.nodeStates()).some((node) => node.nodeId === ownerId && node.alive);
  return { ownerId: fleet.nodeId, isOwnerAlive, ...idempotency };
}

/**
 * The runtime API as an encapsulated fastify plugin: `/api/v1/*`, `/openapi.json`, `/docs` and
 * `/metrics`, with zod validation and serialisation, one error handler, bearer auth, request ids
 * on every response and `server-timing` on runtime operations. Mount it at the root of an app
 * (it sets that app's 404 handler for its prefix). Not wrapped in fastify-plugin on purpose:
 * its hooks, compilers and error handler stay inside.
 */
export const runtimeApiPlugin: FastifyPluginAsync<RuntimeApiPluginOptions> = async (app, options) => {
  const { service } = options;
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (!Number.isSafeInteger(bodyLimitBytes) || bodyLimitBytes <= 0) {
    throw new TypeError(`bodyLimitBytes must be a positive integer, got ${String(options.bodyLimitBytes)}`);
  }
  const telemetry = options.telemetry ?? createServerTelemetry();
  telemetry.countRuntimesOf(service);
  const { fleet } = options;
  if (fleet) telemetry.watchFleet({ nodeId: fleet.nodeId, version: options.version, directory: fleet.directory });

  installJsonBodyParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimitBytes;
  });
  const peers = fleet ? new PeerRequestVerifier(fleet.nodeId, fleet.secret) : undefined;
  const verifier = options.auth ? new ApiKeyVerifier(options.auth) : undefined;
  installRequestHooks(app, { telemetry, verifier, allowedHosts: options.allowedHosts, peers });
  // A peer's body is checked against its signature before anything reads it.
  if (fleet) installPeerAuthHooks(app, { nodeId: fleet.nodeId, secret: fleet.secret });
  const routes = installMethodNotAllowed(app);
  // A key scoped to runtimes reaches only those, here, before a request is forwarded anywhere.
  installRuntimeScopeHook(app, service);
  // Forwarding first: a request for another node's runtime is claimed (Idempotency-Key) there.
  if (fleet) installForwardingHook(app, fleet);
  if (options.idempotency) installIdempotencyHooks(app, idempotencyOfNode(options.idempotency, fleet));
  installErrorHandlers(app, routes);
  await registerOpenApi(app, { version: options.version, authenticated: options.auth !== undefined });

  app.get('/metrics', { config: ADMIN_ROUTE, schema: { hide: true } }, async (_request, reply) =>
    reply.type(telemetry.contentType).send(await telemetry.metrics()),
  );

  await app.register(
    async (api) => {
      await api.register(serviceRoutes, { service, version: options.version });
      if (fleet) await api.register(fleetRoutes, { fleet });
      await api.register(runtimeRoutes, { service });
      await api.register(dataRoutes, { service });
      await api.register(checkpointRoutes, { service });
      await api.register(retentionRoutes, { service });
      await api.register(eventRoutes, { service, events: options.events });
      await api.register(webhookRoutes, { webhooks: options.webhooks });
      await api.register(apiKeyRoutes, { auth: options.auth, verifier });
    },
    { prefix: API_PREFIX },
  );
  for (const routes of options.routes ?? []) {
    await app.register(async (scope) => {
      // Not of the runtime API's contract: left out of its OpenAPI document (as /metrics is).
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
      await scope.register(routes);
    });
  }
};
