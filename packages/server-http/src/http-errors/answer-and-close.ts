import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused request's unread body is still read (and discarded) after the answer. */
const LINGER_MS = 2_000;

/** `inject()` (light-my-request) hands in a socket stand-in without destroy(). */
function realSocketOf(request: FastifyRequest): Socket | undefined {
  const socket = request.raw.socket as Partial<Socket> | undefined;
  return typeof socket?.destroy === 'function' ? (socket as Socket) : undefined;
}

/**
 * fastify refuses a body it stopped reading (over the limit, wrong content type) with
 * `connection: close`, and Node then closes the socket while the client may still be sending:
 * the client's kernel gets a reset that can wipe the answer before the client reads it (fetch
 * reports EPIPE instead of the 413). So the connection stays open and Node reads and discards
 * the rest of the body, nothing kept in memory, for at most LINGER_MS after the answer; a client
 * still sending by then is cut off.
 */
export function keepReadingAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  reply.raw.once('finish', () => {
    if (request.raw.complete) return;
    const socket = realSocketOf(request);
    const timer = setTimeout(() => socket?.destroy(), LINGER_MS);
    timer.unref();
    request.raw.once('end', () => clearTimeout(timer));
  });
}

/**
 * Answers `connection: close` and closes the connection after the answer (401, 421), so a
 * refused caller keeps no socket open. When a body is still arriving, the close lingers as in
 * keepReadingAfterAnswer: Node then ends its side only (`end()`, not `destroySoon()`), goes on
 * reading and discarding, and the socket is destroyed once the body has been read, or after
 * LINGER_MS whatever the client does.
 */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('connection', 'close');
  const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  const socket = realSocketOf(request);
  if (!hasBody || request.raw.complete || !socket) return;
  // Node ends a `connection: close` answer with destroySoon() when the socket has one, end() otherwise.
  (socket as { destroySoon?: unknown }).destroySoon = undefined;
  reply.raw.once('finish', () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    const destroyOnceSent = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
    if (request.raw.complete) destroyOnceSent();
    else request.raw.once('end', destroyOnceSent);
  });
}
