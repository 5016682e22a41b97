import { connect, type Socket } from 'node:net';

export interface HostileSocket {
  socket: Socket;
  /** When the server closed it (ms since the socket was opened); undefined while open. */
  closedAfterMs: number | undefined;
  /** Everything the server wrote to it. */
  received: () => string;
  /** The socket error's code, if it ended with one (ECONNRESET: reset, not closed). */
  errorCode: () => string | undefined;
}

const PARTIAL_REQUEST = {
  /** Request line and some headers, never the blank line that ends them. */
  headers: 'POST /api/v1/runtimes/exec HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Trickle: ',
  /** Complete headers announcing a body that then arrives a byte at a time. */
  body: 'POST /api/v1/runtimes/exec HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
  /** Nothing at all. */
  silent: '',
} as const;

/**
 * Hostile callers for servers under test: connections that hold a socket without ever finishing
 * a request (issue 18: file-descriptor exhaustion without a token).
 *
 * `count` connections that trickle a request (one more byte every `trickleEveryMs`) and never
 * finish it, opened in batches so the listen backlog is not the limit. From `localAddress`
 * (another loopback address, e.g. 127.0.0.2) so the caller under test can use 127.0.0.1.
 */
export async function openTricklingSockets(
  port: number,
  options: { count: number; localAddress: string; trickle: keyof typeof PARTIAL_REQUEST; trickleEveryMs?: number },
): Promise<{ sockets: HostileSocket[]; stop: () => void }> {
  const sockets: HostileSocket[] = [];
  for (let start = 0; start < options.count; start += 100) {
    const batch = Array.from({ length: Math.min(100, options.count - start) }, () => openOne(port, options.localAddress, PARTIAL_REQUEST[options.trickle]));
    sockets.push(...(await Promise.all(batch)));
  }
  const timer = setInterval(() => {
    for (const hostile of sockets) if (hostile.closedAfterMs === undefined && options.trickle !== 'silent' && hostile.socket.writable) hostile.socket.write(options.trickle === 'headers' ? 'a' : ' ');
  }, options.trickleEveryMs ?? 100);
  return {
    sockets,
    stop: () => {
      clearInterval(timer);
      for (const hostile of sockets) hostile.socket.destroy();
    },
  };
}

function openOne(port: number, localAddress: string, firstBytes: string): Promise<HostileSocket> {
  return new Promise((resolve) => {
    const openedAt = performance.now();
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let errorCode: string | undefined;
    const hostile: HostileSocket = { socket, closedAfterMs: undefined, received: () => Buffer.concat(chunks).toString('utf8'), errorCode: () => errorCode };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (errorCode ??= error.code ?? error.message));
    socket.on('close', () => {
      hostile.closedAfterMs = performance.now() - openedAt;
      resolve(hostile);
    });
    socket.on('connect', () => {
      if (firstBytes) socket.write(firstBytes);
      resolve(hostile);
    });
  });
}

/** How many of `sockets` the server has not closed yet. */
export const openSocketCount = (sockets: readonly HostileSocket[]): number => sockets.filter((hostile) => hostile.closedAfterMs === undefined).length;

/** Waits until at most `max` of `sockets` are open, or `timeoutMs` passes; answers how many are open. */
export async function waitForOpenSockets(sockets: readonly HostileSocket[], max: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (openSocketCount(sockets) > max && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return openSocketCount(sockets);
}
