import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports tried below the ephemeral range: above the well-known ones and those daemons commonly take. */
const LOWEST = 10_000;
const ATTEMPTS = 50;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for servers that must be told their port up
 * front. Picked at random below the kernel's ephemeral range (`ip_local_port_range`): a port the
 * kernel hands out for `listen(0)` is one it also hands every outgoing connection, so on a busy
 * machine (CI running many suites) a client could take it between this check and the server's
 * bind (EADDRINUSE). Where the range cannot be read (not Linux), the kernel's pick.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralLow();
  if (below !== undefined && below > LOWEST) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
      if (await canListen(port)) return port;
    }
  }
  return listenOnce(0);
}

function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

async function canListen(port: number): Promise<boolean> {
  return listenOnce(port).then(
    () => true,
    () => false,
  );
}

/** Listens on `port` (0: any) on 127.0.0.1, closes, and answers the port it had. */
function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
