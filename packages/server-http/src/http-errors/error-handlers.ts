import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keepReadingAfterAnswer } from './answer-and-close';
import { errorReply } from './error-reply';
import { answerMethodNotAllowed, pathOf } from './method-not-allowed';
import type { RouteMethods } from './route-methods';
import { toErrorReply } from './to-error-reply';

/**
 * The plugin's one error handler and its 404 handler (405 for a path `routes` serves under
 * other methods). Every error response is
 * `{error, code, details?}`; a 5xx, and a 4xx with a cause (a provider's detail), logs the
 * error and its cause with the request id (the logger's bindings), and the body names nothing
 * internal.
 */
export function installErrorHandlers(app: FastifyInstance, routes: RouteMethods): void {
  app.setErrorHandler((error, request, reply) => {
    const decided = toErrorReply(error, request.id);
    if (decided.status >= 500) {
      request.log.error({ err: error, code: decided.body.code }, 'request failed');
    } else if (error instanceof Error && error.cause !== undefined) {
      // A refusal that carries a provider's own account (its ids, host paths): the caller got
      // the public message; the detail is kept here.
      request.log.warn({ err: error, code: decided.body.code }, 'request refused; provider detail in err.cause');
    } else {
      request.log.info({ code: decided.body.code, error: decided.body.error }, 'request rejected');
    }
    if (!request.raw.complete) keepReadingAfterAnswer(request, reply);
    reply.code(decided.status).headers(decided.headers).send(decided.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const allow = routes.methodsOf(pathOf(request));
    // A route that takes this method and found nothing (a file the console does not have) is a 404.
    if (allow.length > 0 && !allow.includes(request.method)) return answerMethodNotAllowed(request, reply, allow);
    const { status, body } = errorReply('route_not_found', `no route ${request.method} ${pathOf(request).slice(0, 200)}`);
    reply.code(status).send(body);
  });
}
