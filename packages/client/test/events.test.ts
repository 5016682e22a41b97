import type { AddressInfo } from 'node:net';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimectlClient, UnauthorizedError, type RuntimectlClient } from '../src/index';

const TOKEN = 'events-test-token';
let baseUrl: string;
let close: () => Promise<void>;
let client: RuntimectlClient;
let service: RuntimeService;

beforeAll(async () => {
  service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
  const app = buildServer({ service, config: { version: '0.0.0-test', auth: { bearerToken: TOKEN } }, logger: pino({ level: 'silent' }), events: { pollIntervalMs: 50 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close = () => app.close();
  client = createRuntimectlClient({ baseUrl, token: TOKEN });
});

afterAll(() => close());

async function openRuntime(): Promise<string> {
  return (await client.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
}

/** Takes `count` events from `events`, then stops the stream. */
async function take(events: AsyncGenerator<{ event_id: number; type: string }>, count: number, abort: AbortController) {
  const taken: Array<{ event_id: number; type: string }> = [];
  for await (const event of events) {
    taken.push(event);
    if (taken.length === count) break;
  }
  abort.abort();
  return taken;
}

describe('the event log through the client', () => {
  it('reads a page filtered by runtime and types', async () => {
    const id = await openRuntime();
    await client.close({ runtime_id: id });
    const page = await client.events({ runtime_id: id, types: ['runtime.closed'] });
    expect(page.events.map((event) => [event.type, event.runtime_id])).toEqual([['runtime.closed', id]]);
    await expect(client.events({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('follows the log live: events already there, then new ones, in order', async () => {
    const id = await openRuntime();
    const abort = new AbortController();
    const following = take(client.followEvents({ runtime_id: id }, { signal: abort.signal }), 3, abort);
    await client.checkpoint({ runtime_id: id });
    await client.close({ runtime_id: id });
    expect((await following).map((event) => event.type)).toEqual(['runtime.opened', 'checkpoint.created', 'runtime.closed']);
  });

  it('a stream that breaks is reopened after the last event received: nothing missed, nothing twice', async () => {
    const id = await openRuntime();
    await client.checkpoint({ runtime_id: id });
    let streams = 0;
    // The first stream is cut right after its first event.
    const cutting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.headers as Record<string, string> | undefined)?.accept !== 'text/event-stream' || streams++ > 0) return response;
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!/^id:[^]*?\n\n/m.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      const firstEvent = text.slice(0, text.indexOf('\n\n', text.indexOf('id:')) + 2);
      void reader.cancel();
      return new Response(new ReadableStream({ start: (controller) => { controller.enqueue(new TextEncoder().encode(firstEvent)); controller.error(new Error('connection reset')); } }), { headers: response.headers });
    };
    const flaky = createRuntimectlClient({ baseUrl, token: TOKEN, fetch: cutting });
    const reconnects: unknown[] = [];
    const abort = new AbortController();
    const following = take(flaky.followEvents({ runtime_id: id }, { signal: abort.signal, onReconnect: (error) => reconnects.push(error) }), 3, abort);
    await client.close({ runtime_id: id });
    const events = await following;
    expect(events.map((event) => event.type)).toEqual(['runtime.opened', 'checkpoint.created', 'runtime.closed']);
    expect(new Set(events.map((event) => event.event_id)).size).toBe(3);
    expect(reconnects).toHaveLength(1);
    expect(streams).toBe(2);
  });

  it('a refused stream (no token) throws the error class, it does not retry', async () => {
    const anonymous = createRuntimectlClient({ baseUrl });
    const iterator = anonymous.followEvents({});
    await expect(iterator.next()).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
