import type { FastifyInstance } from 'fastify';
import { errorReply } from './error-reply';
import { toErrorReply } from './to-error-reply';

/**
 * The plugin's one error handler and its 404 handler. Every error response is
 * `{error, code, details?}`; a 5xx logs its cause with the request id (the logger's bindings),
 * and the body names nothing internal.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const decided = toErrorReply(error, request.id);
    if (decided.status >= 500) {
      request.log.error({ err: error, code: decided.body.code }, 'request failed');
    } else {
      request.log.info({ code: decided.body.code, error: decided.body.error }, 'request rejected');
    }
    reply.code(decided.status).headers(decided.headers).send(decided.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    const { status, body } = errorReply('route_not_found', `no route ${request.method} ${path}`);
    reply.code(status).send(body);
  });
}
