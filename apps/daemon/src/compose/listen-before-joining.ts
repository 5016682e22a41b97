import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Requests that arrived before the daemon had joined the fleet, and what releases them. */
export interface RequestGate {
  /** Serves every held request, then gets out of the way: later requests go straight to the app. Idempotent. */
  open(): void;
  /** The start failed: held requests' connections are closed unanswered. Idempotent. */
  abandon(): void;
}

/** `host:port` as a URL authority (IPv6 in brackets). */
function authorityOf(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Why listening failed, in the words of the start's one line. */
function describeListenFailure(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'EADDRINUSE'
      ? 'another process holds that address (EADDRINUSE)'
      : code === 'EACCES'
        ? 'permission denied (EACCES: a port below 1024 needs privileges)'
        : code === 'EADDRNOTAVAIL'
          ? 'no interface of this machine has that address (EADDRNOTAVAIL)'
          : (error as Error).message;
  return new Error(`could not listen on ${authorityOf(host, port)}: ${why}; this node did not join the fleet`, { cause: error });
}

/**
 * Binds the daemon's address before it joins the fleet (registration, heartbeat, start-up
 * reconciliation), so a daemon whose port another process took — a sandbox's background job
 * left behind after a stop — refuses to start instead of heartbeating as a live node whose
 * advertised URL answers for someone else. Requests that arrive before `open()` wait: a request
 * served before the node registered would take a runtime lease that registration then ends.
 * Rejects with one line naming the address when it cannot be bound.
 */
export async function listenBeforeJoining(app: FastifyInstance, host: string, port: number): Promise<RequestGate> {
  // Plugin errors are not listen failures: they surface as themselves.
  await app.ready();
  const server: Server = app.server;
  const serve = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  const held: Array<[IncomingMessage, ServerResponse]> = [];
  const hold = (request: IncomingMessage, response: ServerResponse) => void held.push([request, response]);
  server.removeAllListeners('request');
  server.on('request', hold);
  let settled = false;
  /** Stops holding: requests go to `listeners` from now on. */
  const settle = (listeners: typeof serve): boolean => {
    if (settled) return false;
    settled = true;
    server.removeListener('request', hold);
    for (const listener of listeners) server.on('request', listener);
    return true;
  };
  try {
    await app.listen({ host, port });
  } catch (error) {
    settle(serve);
    throw describeListenFailure(error, host, port);
  }
  return {
    open: () => {
      if (!settle(serve)) return;
      for (const [request, response] of held.splice(0)) for (const listener of serve) listener(request, response);
    },
    abandon: () => {
      // A request arriving after the start failed (until the server is closed) is never served either.
      if (!settle([(request) => request.socket.destroy()])) return;
      for (const [request] of held.splice(0)) request.socket.destroy();
    },
  };
}
