import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BearerTokenVerifier } from './auth/bearer-auth';
import { HostAllowlist } from './auth/host-allowlist';
import { closeAfterAnswer } from './http-errors/answer-and-close';
import { errorReply } from './http-errors/error-reply';
import { REQUEST_ID_HEADER } from './request-id';
import './route-config';
import { decorateProviderTiming, serverTimingOf, startProviderTiming } from './provider-timing';
import type { ServerTelemetry } from './telemetry/server-telemetry';

/** The route pattern (never the raw URL, whose ids would explode label cardinality). */
export const routeLabelOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

function rejectHost(request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = errorReply(
    'host_not_allowed',
    'the Host header names neither a loopback address nor an allowed host (runtimed: http.allowed_hosts); without auth other names are refused against DNS rebinding',
  );
  closeAfterAnswer(request, reply);
  reply.code(status).send(body);
}

function rejectUnauthenticated(request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = errorReply('unauthorized', 'missing or invalid bearer token');
  // A refused caller keeps no socket open (nor a body trickling into it).
  closeAfterAnswer(request, reply);
  reply.code(status).header('www-authenticate', 'Bearer realm="runtimectl"').send(body);
}

/**
 * Hooks every request in the plugin passes through, in order: request id header, bearer auth
 * (all routes but the public ones, unknown routes included) or, without auth, the Host check
 * (every route: see HostAllowlist), and the start of provider timing
 * for runtime operations (their handlers pass `providerTimingOf(request)` to the service),
 * `server-timing` on their responses, request metrics.
 */
export function installRequestHooks(
  app: FastifyInstance,
  options: { telemetry: ServerTelemetry; auth?: { bearerToken: string } | undefined; allowedHosts?: readonly string[] | undefined },
): void {
  const { telemetry } = options;
  const verifier = options.auth ? new BearerTokenVerifier(options.auth.bearerToken) : undefined;
  const hosts = verifier ? undefined : new HostAllowlist(options.allowedHosts);
  decorateProviderTiming(app);
  // One hook for all three: the id header goes on before auth can answer 401.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (hosts && !hosts.allows(request.headers.host)) {
      rejectHost(request, reply);
      return;
    }
    const config = request.routeOptions.config.runtimectl;
    if (!verifier || config?.public || verifier.verify(request.headers.authorization)) {
      if (config?.timing) startProviderTiming(request);
      done();
      return;
    }
    rejectUnauthenticated(request, reply);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const timing = serverTimingOf(request, reply.elapsedTime);
    if (timing !== undefined) reply.header('server-timing', timing);
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    telemetry.recordRequest(request.method, routeLabelOf(request), reply.statusCode, reply.elapsedTime);
    done();
  });
}
