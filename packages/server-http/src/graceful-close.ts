import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection whose last answer went out may take to read it before it is destroyed. */
const LAST_ANSWER_GRACE_MS = 5_000;

/**
 * Makes a closing server wait only for the requests it is answering. Node's `server.close()`
 * closes the connections that sit between two requests, once; it waits for every other one: a
 * connection opened and left silent, or half-way through a request head, until the headers
 * timeout; one whose request finishes during the close, until the keep-alive timeout. Returns
 * what to call when the close starts: it destroys each connection with no request in flight,
 * tells the others' clients (`Connection: close`) not to reuse them, and ends each as soon as its
 * last answer is out.
 */
export function closeConnectionsNotInFlight(server: Server): () => void {
  /** The answers in flight on each open connection (several when pipelined). */
  const inFlight = new Map<Socket, Set<ServerResponse>>();
  let closing = false;
  const endAfterLastAnswer = (socket: Socket) => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LAST_ANSWER_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
  const refuseReuse = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  };
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, new Set());
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (request, response: ServerResponse) => {
    const answers = inFlight.get(request.socket);
    if (!answers) return;
    answers.add(response);
    if (closing) refuseReuse(response);
    response.once('close', () => {
      answers.delete(response);
      if (closing && answers.size === 0 && inFlight.has(request.socket)) endAfterLastAnswer(request.socket);
    });
  });
  return () => {
    closing = true;
    for (const [socket, answers] of inFlight) {
      if (answers.size === 0) socket.destroy();
      else answers.forEach(refuseReuse);
    }
  };
}
