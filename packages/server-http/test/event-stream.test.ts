import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, tokenSha256 } from '@runtimectl/core';
import { createTestServer, type TestServer, type TestServerOptions } from './test-server';

/** One SSE frame as the stream sent it. */
interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads an SSE response into frames as they arrive. */
class SseReader {
  readonly frames: Frame[] = [];
  #buffer = '';
  readonly done: Promise<void>;

  constructor(readonly response: Response, readonly controller: AbortController) {
    this.done = this.#read();
  }

  async #read(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        this.#buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
          const block = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          const frame: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else {
              const colon = line.indexOf(':');
              (frame as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
            }
          }
          this.frames.push(frame);
        }
      }
    } catch {
      // aborted by the test
    }
  }

  events(): Frame[] {
    return this.frames.filter((frame) => frame.id !== undefined);
  }

  async until(condition: () => boolean, what: string): Promise<void> {
    for (let waited = 0; !condition(); waited += 10) {
      if (waited > 10_000) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.frames)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): Promise<void> {
    this.controller.abort();
    return this.done;
  }
}

type EventPage = { events: Array<{ type: string }>; last_event_id: number };

let server: TestServer | undefined;
let baseUrl = '';

afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

async function start(events = { pollIntervalMs: 50, heartbeatMs: 60_000 }, config: TestServerOptions['config'] = {}, store?: MemoryRuntimeStore): Promise<TestServer> {
  server = createTestServer({ events, config, ...(store ? { store } : {}) });
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return server;
}

async function subscribe(query = '', headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/events${query}`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return new SseReader(response, controller);
}

async function openRuntime(s: TestServer): Promise<string> {
  return (await s.service.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
}

describe('GET /api/v1/events', () => {
  it('streams a key scoped to runtimes the events of its runtimes only, catch-up and live', async () => {
    const token = 'scoped-stream-token-0123456789';
    const s = await start(undefined, {
      auth: { keys: [{ name: 'agent', tokenSha256: tokenSha256(token), scopes: ['read'], runtimes: { ids: ['rt-mine'] } }] },
    });
    await s.service.open({ runtime_id: 'rt-mine', conversation_id: 'c', sender_id: 's' });
    await openRuntime(s);
    const reader = await subscribe('', { authorization: `Bearer ${token}` });
    await reader.until(() => reader.events().length === 1, 'the catch-up event of rt-mine');
    await openRuntime(s);
    await s.service.close({ runtime_id: 'rt-mine' });
    await reader.until(() => reader.events().length === 2, 'the live close of rt-mine');
    await reader.close();
    expect(reader.events().map((frame) => [frame.event, JSON.parse(frame.data!).runtime_id])).toEqual([
      ['runtime.opened', 'rt-mine'],
      ['runtime.closed', 'rt-mine'],
    ]);
  });

  it("a stream whose key is revoked, or expires, while it is open ends within a heartbeat; the admin's goes on", async () => {
    const store = new MemoryRuntimeStore();
    const admin = 'admin-stream-token-0123456789';
    const brief = 'brief-stream-token-0123456789';
    const s = await start({ pollIntervalMs: 20, heartbeatMs: 100 }, {
      auth: { bearerToken: admin, keys: [{ name: 'brief', tokenSha256: tokenSha256(brief), scopes: ['read'], expiresAtMs: Date.now() + 400 }], store },
    }, store);
    const created = await s.app.inject({ method: 'POST', url: '/api/v1/keys', headers: { authorization: `Bearer ${admin}` }, payload: { name: 'watcher', scopes: ['read'] } });
    const revocable = await subscribe('', { authorization: `Bearer ${created.json().token}` });
    const expiring = await subscribe('', { authorization: `Bearer ${brief}` });
    const lasting = await subscribe('', { authorization: `Bearer ${admin}` });
    await openRuntime(s);
    await revocable.until(() => revocable.events().length === 1, 'the event before the revocation');
    await s.app.inject({ method: 'DELETE', url: '/api/v1/keys/watcher', headers: { authorization: `Bearer ${admin}` } });
    await revocable.done;
    await expiring.done;
    await openRuntime(s);
    await lasting.until(() => lasting.events().length === 2, 'both events on the admin stream');
    expect(revocable.events()).toHaveLength(1);
    expect(expiring.events()).toHaveLength(1);
    await lasting.close();
  });

  it('answers a JSON page of the log, oldest first, filtered by runtime and types, with the last id', async () => {
    const s = await start();
    const a = await openRuntime(s);
    const b = await openRuntime(s);
    await s.service.close({ runtime_id: a });
    const page = (await (await fetch(`${baseUrl}/api/v1/events?runtime_id=${a}`)).json()) as EventPage;
    expect(page.events.map((event) => event.type)).toEqual(['runtime.opened', 'runtime.closed']);
    expect(page.last_event_id).toBe(3);
    const opened = (await (await fetch(`${baseUrl}/api/v1/events?types=runtime.opened&after=1`)).json()) as EventPage;
    expect(opened.events).toMatchObject([{ event_id: 2, type: 'runtime.opened', runtime_id: b, data: { provider: 'memory' } }]);
    const refused = await fetch(`${baseUrl}/api/v1/events?types=runtime.exploded`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('streams the events already in the log, then new ones as they are committed', async () => {
    const s = await start();
    const first = await openRuntime(s);
    const stream = await subscribe();
    await stream.until(() => stream.events().length === 1, 'the existing event');
    const second = await openRuntime(s);
    await stream.until(() => stream.events().length === 2, 'the new event');
    expect(stream.events().map((frame) => [frame.id, frame.event, JSON.parse(frame.data!).runtime_id])).toEqual([
      ['1', 'runtime.opened', first],
      ['2', 'runtime.opened', second],
    ]);
    await stream.close();
  });

  it('a client that reconnects with Last-Event-ID gets every event it missed, and none twice', async () => {
    const s = await start();
    const id = await openRuntime(s);
    const stream = await subscribe(`?runtime_id=${id}`);
    await s.service.checkpoint({ runtime_id: id });
    await stream.until(() => stream.events().length === 2, 'two events');
    await stream.close();
    const lastSeen = stream.events().at(-1)!.id!;
    // While it is away: events of this runtime and of another one.
    await s.service.checkpoint({ runtime_id: id });
    await openRuntime(s);
    await s.service.pause({ runtime_id: id });
    const again = await subscribe(`?runtime_id=${id}`, { 'last-event-id': lastSeen });
    await s.service.resume({ runtime_id: id });
    await again.until(() => again.events().some((frame) => frame.event === 'runtime.resumed'), 'the resume');
    const seen = [...stream.events(), ...again.events()].map((frame) => Number(frame.id));
    const all = (await s.service.listEvents({ runtime_id: id, limit: 100 })).events.map((event) => event.event_id);
    expect(seen).toEqual(all);
    await again.close();
  });

  it('sends a keepalive comment when no event came for the heartbeat time', async () => {
    await start({ pollIntervalMs: 20, heartbeatMs: 100 });
    const stream = await subscribe();
    await stream.until(() => stream.frames.some((frame) => frame.comment === 'keepalive'), 'a keepalive');
    await stream.close();
  });

  it('many streams share one reader: a commit costs one read of the log, not one per stream', async () => {
    const s = await start();
    await openRuntime(s);
    const streams = await Promise.all(Array.from({ length: 10 }, () => subscribe()));
    await Promise.all(streams.map((stream) => stream.until(() => stream.events().length === 1, 'the existing event')));
    const listEvents = s.store.listEvents.bind(s.store);
    let reads = 0;
    s.store.listEvents = (query) => {
      reads += 1;
      return listEvents(query);
    };
    await openRuntime(s);
    await Promise.all(streams.map((stream) => stream.until(() => stream.events().length === 2, 'the new event')));
    expect(reads).toBeLessThanOrEqual(2);
    await Promise.all(streams.map((stream) => stream.close()));
  });

  it('a closing server ends its open streams instead of waiting for them', async () => {
    const s = await start();
    const stream = await subscribe();
    await stream.until(() => stream.frames.length > 0, 'the stream to open');
    await s.app.close();
    server = undefined;
    await stream.done;
  });

  it('refuses a Last-Event-ID that is not an event id', async () => {
    await start();
    const response = await fetch(`${baseUrl}/api/v1/events`, { headers: { accept: 'text/event-stream', 'last-event-id': 'yesterday' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid_request');
  });
});
