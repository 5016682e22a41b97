import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BearerTokenVerifier } from './auth/bearer-auth';
import { errorReply } from './http-errors/error-reply';
import { REQUEST_ID_HEADER } from './request-id';
import './route-config';
import type { RequestTiming, ServerTelemetry } from './telemetry/server-telemetry';

const timings = new WeakMap<FastifyRequest, RequestTiming>();

/** The route pattern (never the raw URL, whose ids would explode label cardinality). */
export const routeLabelOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

const formatMs = (ms: number) => (Math.round(ms * 1000) / 1000).toString();

function rejectUnauthenticated(reply: FastifyReply): void {
  const { status, body } = errorReply('unauthorized', 'missing or invalid bearer token');
  reply.code(status).header('www-authenticate', 'Bearer realm="runtimectl"').send(body);
}

/**
 * Hooks every request in the plugin passes through, in order: request id header, bearer auth
 * (all routes but the public ones, unknown routes included), provider-time measurement around
 * the handler of runtime operations, `server-timing` on their responses, request metrics.
 */
export function installRequestHooks(
  app: FastifyInstance,
  options: { telemetry: ServerTelemetry; auth?: { bearerToken: string } | undefined },
): void {
  const { telemetry } = options;
  const verifier = options.auth ? new BearerTokenVerifier(options.auth.bearerToken) : undefined;
  // One hook for both: the id header goes on before auth can answer 401.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (!verifier || request.routeOptions.config.runtimectl?.public || verifier.verify(request.headers.authorization)) {
      done();
      return;
    }
    rejectUnauthenticated(reply);
  });

  // After parsing and validation, so the handler and everything it awaits run inside the scope.
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.routeOptions.config.runtimectl?.timing) {
      done();
      return;
    }
    const timing: RequestTiming = { providerMs: 0 };
    timings.set(request, timing);
    telemetry.measureProviderTime(timing, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.runtimectl?.timing) {
      const providerMs = timings.get(request)?.providerMs ?? 0;
      reply.header('server-timing', `provider;dur=${formatMs(providerMs)}, total;dur=${formatMs(reply.elapsedTime)}`);
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    telemetry.recordRequest(request.method, routeLabelOf(request), reply.statusCode, reply.elapsedTime);
    done();
  });
}
