import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from './error-reply';
import { toErrorReply } from './to-error-reply';

/** How long a refused request's unread body is still read (and discarded) after the answer. */
const LINGER_MS = 2_000;

/**
 * fastify refuses a body it stopped reading (over the limit, wrong content type) with
 * `connection: close`, and Node then closes the socket while the client may still be sending:
 * the client's kernel gets a reset that can wipe the answer before the client reads it (fetch
 * reports EPIPE instead of the 413). So the connection stays open and Node reads and discards
 * the rest of the body, nothing kept in memory, for at most LINGER_MS after the answer; a client
 * still sending by then is cut off.
 */
function keepReadingAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  reply.raw.once('finish', () => {
    if (request.raw.complete) return;
    // `inject()` (light-my-request) hands in a socket stand-in without destroy().
    const socket = request.raw.socket as { destroy?: () => void } | undefined;
    const timer = setTimeout(() => (typeof socket?.destroy === 'function' ? socket.destroy() : undefined), LINGER_MS);
    timer.unref();
    request.raw.once('end', () => clearTimeout(timer));
  });
}

/**
 * The plugin's one error handler and its 404 handler. Every error response is
 * `{error, code, details?}`; a 5xx, and a 4xx with a cause (a provider's detail), logs the
 * error and its cause with the request id (the logger's bindings), and the body names nothing
 * internal.
 */
export function installErrorHandlers(app: FastifyInstance): void {
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
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    const { status, body } = errorReply('route_not_found', `no route ${request.method} ${path}`);
    reply.code(status).send(body);
  });
}
