import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStreamOptions } from '../src/index';
import { listenOnLoopback, rawRequest } from './raw-http';
import { createTestServer, type TestServer } from './test-server';

/** A client of `GET /events` that reads the answer's first bytes, then never reads again. */
interface StalledStream {
  socket: Socket;
  /** What arrived before it stopped reading: the status line and headers (or a refusal whole). */
  head: string;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

function openStalledStream(port: number, localAddress: string, query = ''): Promise<StalledStream> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => socket.write(`GET /api/v1/events${query} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`));
    socket.once('data', (chunk: Buffer) => {
      // From now on nothing is read: the kernel's buffers fill, then the server's writes stall.
      socket.pause();
      resolve({ socket, head: chunk.toString('utf8'), closed });
    });
    socket.once('close', () => reject(new Error('closed before answering')));
  });
}

const statusOf = (stream: StalledStream) => Number(/^HTTP\/1\.1 (\d{3})/.exec(stream.head)?.[1]);
const bodyOf = (stream: StalledStream) => JSON.parse(stream.head.slice(stream.head.indexOf('\r\n\r\n') + 4)) as { code: string; details: Record<string, unknown> };

let server: TestServer;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server.app.close();
});

async function start(events: EventStreamOptions): Promise<number> {
  server = createTestServer({ events: { pollIntervalMs: 50, heartbeatMs: 60_000, ...events } });
  return listenOnLoopback(server.app);
}

async function stalled(port: number, localAddress: string, query = ''): Promise<StalledStream> {
  const stream = await openStalledStream(port, localAddress, query);
  sockets.push(stream.socket);
  return stream;
}

/** Events of ~64 KB each in the log, so a stream replaying them fills a reader's buffers that no one empties. */
async function fillTheLog(count: number): Promise<void> {
  const padding = 'x'.repeat(64_000);
  await server.store.commit({ events: Array.from({ length: count }, (_, index) => ({ type: 'runtime.opened', atMs: index, runtimeId: `rt-${index}`, checkpointId: null, data: { padding } })) });
}

describe('event stream limits (streams that never read)', () => {
  it('refuses streams over the per-address and total caps with 429 too_many_event_streams and closes them, while every other request is answered', async () => {
    const port = await start({ maxStreams: 5, maxStreamsPerAddress: 3 });
    const held = await Promise.all([1, 2, 3].map(() => stalled(port, '127.0.0.2')));
    expect(held.map(statusOf)).toEqual([200, 200, 200]);

    const overAddress = await stalled(port, '127.0.0.2');
    expect(statusOf(overAddress)).toBe(429);
    expect(overAddress.head).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(overAddress)).toMatchObject({ code: 'too_many_event_streams', details: { limit: 3, scope: 'address' } });
    await overAddress.closed;

    // The holder's address still gets answers; so does everyone else.
    expect((await rawRequest(port, { path: '/api/v1/providers', localAddress: '127.0.0.2' })).status).toBe(200);
    expect((await rawRequest(port, { path: '/api/v1/events', localAddress: '127.0.0.2' })).status).toBe(200);

    const others = await Promise.all([1, 2].map(() => stalled(port, '127.0.0.3')));
    expect(others.map(statusOf)).toEqual([200, 200]);
    const overTotal = await stalled(port, '127.0.0.4');
    expect(statusOf(overTotal)).toBe(429);
    expect(bodyOf(overTotal)).toMatchObject({ code: 'too_many_event_streams', details: { limit: 5, scope: 'total' } });
    expect((await rawRequest(port, { path: '/api/v1/health', localAddress: '127.0.0.4' })).status).toBe(200);

    // A stream that ends gives its place back.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await expect.poll(async () => statusOf(await stalled(port, '127.0.0.4')), { timeout: 10_000 }).toBe(200);
  });

  it('tells a refused stream when to try again (Retry-After), so a follower waits instead of hammering', async () => {
    const port = await start({ maxStreams: 1 });
    expect(statusOf(await stalled(port, '127.0.0.2'))).toBe(200);
    const refused = await stalled(port, '127.0.0.3');
    expect(statusOf(refused)).toBe(429);
    expect(refused.head).toMatch(/\r\nretry-after: [1-5]\r\n/i);
  });

  it('closes a stream whose reader stopped reading once a write has waited writeTimeoutMs, and frees its place', async () => {
    const port = await start({ maxStreamsPerAddress: 1, writeTimeoutMs: 300 });
    // 64 MB: more than the kernel buffers of a loopback connection hold (up to 32 MB each way).
    await fillTheLog(1_000);
    const stream = await stalled(port, '127.0.0.2');
    expect(statusOf(stream)).toBe(200);
    // The server's side goes (the client, not reading, cannot see it yet): its place is free again.
    await expect.poll(async () => statusOf(await stalled(port, '127.0.0.2', '?after=1000')), { timeout: 10_000 }).toBe(200);
    // Reading at last, the stalled client finds its stream cut short.
    stream.socket.resume();
    await stream.closed;
  });

  it('ends a stream after maxLifetimeMs and closes its connection, so no stream holds its place for ever', async () => {
    const port = await start({ maxLifetimeMs: 300 });
    const stream = await stalled(port, '127.0.0.2');
    stream.socket.resume();
    await stream.closed;
  });
});
