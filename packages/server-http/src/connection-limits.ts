import type { Server } from 'node:http';

/** Defaults of the connection limits (see ServerConfig); the daemon's config documents why. */
export const CONNECTION_DEFAULTS = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 4_096,
  maxConnectionsPerAddress: 256,
});

export type ConnectionLimits = typeof CONNECTION_DEFAULTS;

/**
 * Node checks request and headers timeouts on a timer (30 s by default), so a timeout could
 * run up to twice its value: check a few times per timeout, at most once a second.
 */
export function connectionsCheckingIntervalMs(limits: ConnectionLimits): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
}

/**
 * Destroys a new connection when its source address already holds `maxPerAddress` open ones,
 * so one caller cannot take every connection (and file descriptor) the server allows. Node's
 * `maxConnections` bounds the total; this bounds each address's share of it.
 */
export function limitConnectionsPerAddress(server: Server, maxPerAddress: number): void {
  const openByAddress = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const open = openByAddress.get(address) ?? 0;
    if (open >= maxPerAddress) {
      socket.destroy();
      return;
    }
    openByAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left === 0) openByAddress.delete(address);
      else openByAddress.set(address, left);
    });
  });
}
