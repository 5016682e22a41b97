import type { AddressInfo } from 'node:net';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimectlClient, TooManyEventStreamsError, type RuntimectlClient } from '../src/index';

const TOKEN = 'refused-follower-token';
let baseUrl: string;
let close: () => Promise<void>;
let client: RuntimectlClient;
const holders: AbortController[] = [];

beforeAll(async () => {
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
  // One stream at most: a stream held by the test refuses every follower.
  const app = buildServer({ service, config: { version: '0.0.0-test', auth: { bearerToken: TOKEN } }, logger: pino({ level: 'silent' }), events: { pollIntervalMs: 50, maxStreams: 1 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close = () => app.close();
  client = createRuntimectlClient({ baseUrl, token: TOKEN });
});

afterEach(() => {
  for (const holder of holders.splice(0)) holder.abort();
});

afterAll(() => close());

/** Opens a stream that takes the server's only place (once the previous test's streams gave it back); abort the controller to free it. */
async function holdTheOnlyStream(): Promise<AbortController> {
  let holder = new AbortController();
  await expect
    .poll(
      async () => {
        holder = new AbortController();
        const response = await fetch(`${baseUrl}/api/v1/events?after=${Number.MAX_SAFE_INTEGER}`, {
          headers: { accept: 'text/event-stream', authorization: `Bearer ${TOKEN}` },
          signal: holder.signal,
        });
        void response.body!.pipeTo(new WritableStream()).catch(() => undefined);
        return response.status;
      },
      { timeout: 10_000 },
    )
    .toBe(200);
  holders.push(holder);
  return holder;
}

describe('a follower refused for too many event streams', () => {
  it('waits for Retry-After, then follows from where it was asked once a place frees', async () => {
    const opened = await client.open({ conversation_id: 'c', sender_id: 's' });
    const id = opened.runtime.runtime_id;
    const after = (await client.events({ runtime_id: id })).events.at(-1)!.event_id;
    const holder = await holdTheOnlyStream();

    const refusals: Array<{ error: unknown; delayMs: number; atMs: number }> = [];
    const abort = new AbortController();
    const events = client.followEvents({ runtime_id: id, after }, { signal: abort.signal, onReconnect: (error, delayMs) => refusals.push({ error, delayMs, atMs: Date.now() }) });
    const first = events.next();
    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(refusals[0]!.error).toBeInstanceOf(TooManyEventStreamsError);
    expect((refusals[0]!.error as TooManyEventStreamsError).retryAfterMs).toBe(1_000);
    expect(refusals[0]!.delayMs).toBeGreaterThanOrEqual(1_000);

    await client.checkpoint({ runtime_id: id });
    holder.abort();
    const { value } = await first;
    expect(value).toMatchObject({ type: 'checkpoint.created', runtime_id: id });
    expect(value!.event_id).toBeGreaterThan(after);
    // Not before the daemon said it could try again.
    expect(Date.now() - refusals[0]!.atMs).toBeGreaterThanOrEqual(1_000);
    abort.abort();
    expect(await events.next()).toEqual({ done: true, value: undefined });
  }, 15_000);

  it('stops during its wait as soon as it is aborted', async () => {
    await holdTheOnlyStream();
    const abort = new AbortController();
    let refused!: () => void;
    const wasRefused = new Promise<void>((resolve) => (refused = resolve));
    const waiting = client.followEvents({}, { signal: abort.signal, onReconnect: () => refused() }).next();
    await wasRefused;
    const abortedAtMs = Date.now();
    abort.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    // Its wait was at least a second: ending well before proves the wait itself was cut short.
    expect(Date.now() - abortedAtMs).toBeLessThan(900);
  });

  it('other refusals still end it, and a one-shot page is never refused for the stream cap', async () => {
    await holdTheOnlyStream();
    expect((await client.events({ limit: 1 })).events.length).toBeGreaterThanOrEqual(0);
    const anonymous = createRuntimectlClient({ baseUrl });
    await expect(anonymous.followEvents({}).next()).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
