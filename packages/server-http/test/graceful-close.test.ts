import { connect, type Socket } from 'node:net';
import { createMemoryProvider } from '@runtimectl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from './raw-http';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

async function connectTo(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

function received(socket: Socket): () => string {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

/**
 * A closing server answers what it is answering and nothing more: a connection that never sent a
 * whole request head has nothing in flight, and one whose last answer went out waits for nothing.
 * Node's `server.close()` closes only the connections between two requests; a connection opened
 * and left silent (a client's spare, a hostile caller) kept `app.close()` waiting until the
 * headers timeout, and one whose request ended during the close until the keep-alive timeout
 * (65 s: `packages/client` events test, "Hook timed out in 10000ms").
 */
describe('closing the server', () => {
  const sockets: Socket[] = [];
  let server: TestServer | undefined;
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.app.close();
  });

  it('does not wait for a connection that never sent a request, nor one half-way through a request head', async () => {
    server = createTestServer();
    const port = await listenOnLoopback(server.app);
    const silent = await connectTo(port);
    const halfWay = await connectTo(port);
    sockets.push(silent, halfWay);
    halfWay.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.app.close();
    await Promise.all([closed(silent), closed(halfWay)]);
  }, 8_000);

  it('answers a request in flight, then closes its connection instead of keeping it alive', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const provider = createMemoryProvider({
      execHandler: async (request) => {
        if (request.command !== 'slow') return undefined;
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return { stdout: 'done' };
      },
    });
    server = createTestServer({ providers: [provider] });
    const port = await listenOnLoopback(server.app);
    const opened = await server.app.inject({
      method: 'POST',
      url: '/api/v1/runtimes/open',
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      payload: { runtime_id: 'rt-close', conversation_id: 'c', sender_id: 's' },
    });
    expect(opened.statusCode).toBe(200);
    const socket = await connectTo(port);
    sockets.push(socket);
    const text = received(socket);
    const body = JSON.stringify({ runtime_id: 'rt-close', command: 'slow' });
    socket.write(
      `POST /api/v1/runtimes/exec HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await inFlight;
    const closing = server.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closing;
    await closed(socket);
    expect(text()).toMatch(/^HTTP\/1\.1 200 /);
    expect(text()).toMatch(/\r\nconnection: close\r\n/i);
    expect(text()).toContain(`"stdout_base64":"${Buffer.from('done').toString('base64')}"`);
  }, 8_000);
});
