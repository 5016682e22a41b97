import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from './error-reply';
import { RouteMethods } from './route-methods';

/** The request's path, without its query; at most 200 characters in messages. */
export const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '';

/** 405 `method_not_allowed` naming the methods `path` takes, in the body and in `Allow` (RFC 9110). */
export function answerMethodNotAllowed(request: FastifyRequest, reply: FastifyReply, allow: readonly string[]): void {
  const path = pathOf(request).slice(0, 200);
  const { status, body } = errorReply('method_not_allowed', `${path} takes ${allow.join(', ')}, not ${request.method}`, { allow: [...allow] });
  reply.code(status).header('allow', allow.join(', ')).send(body);
}

/**
 * Learns every route's methods as it is registered and answers a request whose path is a static
 * route of other methods 405, before its parametric match runs (`GET /api/v1/runtimes/exec` is
 * the exec action with the wrong method, not a runtime named `exec`: action names are not runtime
 * ids). Install it after authentication, so an unauthenticated caller learns nothing of routes.
 * Returns the table, for the 404 handler (a path served under other methods is 405 there too).
 */
export function installMethodNotAllowed(app: FastifyInstance): RouteMethods {
  const routes = new RouteMethods();
  app.addHook('onRoute', (route) => routes.add(route.method, route.url));
  app.addHook('onRequest', (request, reply, done) => {
    const pattern = request.routeOptions.url;
    const allow = pattern && pattern.includes(':') ? routes.staticMethodsOf(pathOf(request)) : undefined;
    if (allow && !allow.includes(request.method)) {
      answerMethodNotAllowed(request, reply, allow);
      return;
    }
    done();
  });
  return routes;
}
