import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/server-process/free-port';

const ephemeral = (() => {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return { low: low!, high: high! };
  } catch {
    return undefined;
  }
})();

describe('freePort', () => {
  it.skipIf(!ephemeral)('answers a port outside the ephemeral range, which no outgoing connection can take before the server binds it', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port < ephemeral!.low || port > ephemeral!.high, `port ${port}`).toBe(true);
  });

  it('answers a port a server can listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
