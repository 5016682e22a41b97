import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from './raw-http';
import { createTestServer, type TestServer } from './test-server';

const REQUEST = 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Sends one request on `socket` and resolves with the response's head once its body is in. */
function exchange(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const headEnd = received.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? Number.NaN);
      if (headEnd >= 0 && received.length >= headEnd + 4 + length) done(() => resolve(received.slice(0, headEnd)));
    };
    const onEnd = () => done(() => reject(new Error(`the server closed the connection (received ${JSON.stringify(received)})`)));
    const done = (settle: () => void) => {
      socket.off('data', onData).off('end', onEnd).off('error', reject);
      settle();
    };
    socket.on('data', onData).once('end', onEnd).once('error', reject);
    socket.write(REQUEST);
  });
}

describe('kept-alive connections', () => {
  let server: TestServer;
  let socket: Socket | undefined;
  afterEach(async () => {
    socket?.destroy();
    await server.app.close();
  });

  // A client keeps an idle connection for its own idle timeout (undici's fetch: 4 s, or the
  // timeout the server advertises less 2 s) and then closes it; a server closing first meets,
  // now and then, a request sent on a connection it is closing: the client sees "other side
  // closed" (soak s6 run 5: 50 clients against one daemon on Node's default 5 s, the clients'
  // event loop late under load). Servers should outlast their clients (as nginx's 75 s and load
  // balancers' 60 s do), so the default is 65 s.
  it('keeps an idle connection open longer than clients keep theirs by default, so a client reusing it after 7 s is answered', async () => {
    server = createTestServer();
    const port = await listenOnLoopback(server.app);
    socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket!.once('connect', resolve));
    const first = await exchange(socket);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nkeep-alive: timeout=65$/im);
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expect(await exchange(socket)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes an idle connection after the configured keepAliveTimeoutMs (and the 1 s Node adds), advertising it', async () => {
    server = createTestServer({ config: { keepAliveTimeoutMs: 1_000 } });
    const port = await listenOnLoopback(server.app);
    socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket!.once('connect', resolve));
    expect(await exchange(socket)).toMatch(/\r\nkeep-alive: timeout=1$/im);
    const startedAt = performance.now();
    await new Promise((resolve) => socket!.once('close', resolve));
    expect(performance.now() - startedAt).toBeGreaterThan(900);
    expect(performance.now() - startedAt).toBeLessThan(10_000);
  });
});
