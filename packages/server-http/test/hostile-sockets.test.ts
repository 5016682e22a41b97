import { afterEach, describe, expect, it } from 'vitest';
import { openTricklingSockets, waitForOpenSockets, type HostileSocket } from '@runtimectl/testkit';
import { listenOnLoopback, rawRequest } from './raw-http';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const HOSTILE_ADDRESS = '127.0.0.2';

describe('hostile sockets (file-descriptor exhaustion)', () => {
  let server: TestServer;
  let stopHostile: (() => void) | undefined;
  afterEach(async () => {
    stopHostile?.();
    stopHostile = undefined;
    await server.app.close();
  });

  async function tokenHolderLatencyMs(port: number): Promise<number> {
    const started = performance.now();
    const response = await rawRequest(port, { path: '/api/v1/providers', headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(response.status).toBe(200);
    return performance.now() - started;
  }

  it('closes the connection after answering 401: at once without a body, after reading the rest of a body (for at most 2 s) while it trickles in', async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN }, requestTimeoutMs: 60_000, headersTimeoutMs: 60_000 } });
    const port = await listenOnLoopback(server.app);
    const hostile = await openTricklingSockets(port, { count: 20, localAddress: HOSTILE_ADDRESS, trickle: 'body' });
    stopHostile = hostile.stop;
    expect(await waitForOpenSockets(hostile.sockets, 0, 3_500), 'hostile sockets still open').toBe(0);
    for (const socket of hostile.sockets) expect(socket.received()).toMatch(/^HTTP\/1\.1 401 [\s\S]*connection: close/i);
    const withoutBody = await rawRequest(port, { path: '/api/v1/providers' });
    expect(withoutBody.status).toBe(401);
    expect(withoutBody.headers.connection).toBe('close');
  });

  it('cuts off a request whose body trickles past requestTimeoutMs, with the contract error body', async () => {
    server = createTestServer({ config: { requestTimeoutMs: 800, headersTimeoutMs: 800 } });
    const port = await listenOnLoopback(server.app);
    const hostile = await openTricklingSockets(port, { count: 200, localAddress: HOSTILE_ADDRESS, trickle: 'body' });
    stopHostile = hostile.stop;
    expect(await waitForOpenSockets(hostile.sockets, 0, 4_000), 'hostile sockets still open').toBe(0);
    expect(Math.max(...hostile.sockets.map((socket) => socket.closedAfterMs!))).toBeLessThan(4_000);
    for (const [index, socket] of hostile.sockets.entries()) {
      const how = `socket ${index}: closed after ${Math.round(socket.closedAfterMs ?? -1)} ms, error ${socket.errorCode() ?? 'none'}`;
      expect(socket.received(), how).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"invalid_request"/);
    }
    expect(await tokenHolderLatencyMs(port)).toBeLessThan(1_000);
  });

  it('serves a token-holder promptly while 1,500 hostile sockets from one address trickle headers or stay silent: beyond the per-address cap they are closed at once, the rest within the headers timeout', async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN }, maxConnectionsPerAddress: 50, requestTimeoutMs: 1_500, headersTimeoutMs: 1_000 } });
    const port = await listenOnLoopback(server.app);
    const trickling = await openTricklingSockets(port, { count: 1_000, localAddress: HOSTILE_ADDRESS, trickle: 'headers' });
    const silent = await openTricklingSockets(port, { count: 500, localAddress: HOSTILE_ADDRESS, trickle: 'silent' });
    stopHostile = () => {
      trickling.stop();
      silent.stop();
    };
    const all: HostileSocket[] = [...trickling.sockets, ...silent.sockets];
    expect(await waitForOpenSockets(all, 50, 1_000), 'hostile sockets still open').toBeLessThanOrEqual(50);
    expect(await tokenHolderLatencyMs(port)).toBeLessThan(500);
    expect(await waitForOpenSockets(all, 0, 4_000), 'hostile sockets still open').toBe(0);
    expect(await tokenHolderLatencyMs(port)).toBeLessThan(500);
  });

  it('refuses connections beyond maxConnections at once', async () => {
    server = createTestServer({ config: { maxConnections: 30 } });
    const port = await listenOnLoopback(server.app);
    const hostile = await openTricklingSockets(port, { count: 100, localAddress: HOSTILE_ADDRESS, trickle: 'headers' });
    stopHostile = hostile.stop;
    expect(await waitForOpenSockets(hostile.sockets, 30, 1_000), 'hostile sockets still open').toBeLessThanOrEqual(30);
  });

  it('refuses timeouts and caps that are not positive integers, and a headers timeout longer than the request timeout, naming the key', () => {
    for (const config of [{ requestTimeoutMs: 0 }, { headersTimeoutMs: -1 }, { keepAliveTimeoutMs: 1.5 }, { maxConnections: 0 }, { maxConnectionsPerAddress: Number.NaN }]) {
      expect(() => createTestServer({ config }), JSON.stringify(config)).toThrow(new RegExp(`config\\.${Object.keys(config)[0]}`));
    }
    expect(() => createTestServer({ config: { requestTimeoutMs: 1_000, headersTimeoutMs: 2_000 } })).toThrow(/config\.headersTimeoutMs/);
    server = createTestServer();
  });
});
