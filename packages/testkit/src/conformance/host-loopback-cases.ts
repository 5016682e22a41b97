import { createServer, type Server } from 'node:net';
import { expect } from 'vitest';
import type { ConformanceArea } from './conformance-area';
import { acceptsOnLoopback } from '../loopback-connection';
import { text } from './expect-helpers';

const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 30_000 };

/** A TCP server on this host's 127.0.0.1 answering `hello`, and its port. */
async function loopbackServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}


/**
 * Isolation v2 — no host loopback (issue 31): a command cannot reach a server listening on the
 * host's 127.0.0.1 (as the daemon's API does), under any address it tries (127.0.0.1, localhost,
 * its default gateway), and a port it listens on never shows up on the host's loopback.
 */
export function hostLoopbackCases({ harness, test }: ConformanceArea, skipReason: string | undefined): void {
  test("a command cannot reach a server on the host's 127.0.0.1, through any address it tries", async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    const { server, port } = await loopbackServer();
    try {
      const { backend } = await harness.createBackend();
      const reach = (host: string) => `(timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port}; cat <&3') 2>/dev/null | grep -q hello && echo reached || echo refused`;
      const gateway = "$(ip route 2>/dev/null | awk '/^default/ { print $3 }')";
      const command = `${reach('127.0.0.1')}; ${reach('localhost')}; gw=${gateway}; if [ -n "$gw" ]; then ${reach('$gw')}; else echo refused; fi`;
      expect(text((await backend.exec({ ...exec, command })).stdout)).toBe('refused\nrefused\nrefused\n');
    } finally {
      server.close();
    }
  });

  test("a port a command listens on never shows up on the host's loopback", async (context) => {
    context.skip(skipReason !== undefined, skipReason);
    const { server, port } = await loopbackServer();
    await new Promise((resolve) => server.close(resolve));
    const { backend } = await harness.createBackend();
    const listen = `command -v python3 >/dev/null || { echo no-python; exit 0; }; python3 -m http.server ${port} --bind 0.0.0.0 >/dev/null 2>&1 & sleep 1; timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' 2>/dev/null && echo listening`;
    const started = text((await backend.exec({ ...exec, command: listen })).stdout);
    context.skip(started.includes('no-python'), 'needs python3 in the sandbox to listen on a port');
    expect(started).toBe('listening\n');
    expect(await acceptsOnLoopback(port)).toBe(false);
  });
}
