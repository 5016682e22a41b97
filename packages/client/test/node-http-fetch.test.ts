import type { AddressInfo } from 'node:net';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTimeoutError, createNodeHttpFetch, createRuntimectlClient, DaemonUnreachableError, RuntimeNotFoundError, type RuntimectlClient } from '../src/index';

// The client over createNodeHttpFetch against a real server: what the client needs of fetch —
// JSON answers, error bodies, streamed bodies, aborts and timeouts, connection failures.
const TOKEN = 'node-http-fetch-token';
let baseUrl: string;
let close: () => Promise<void>;
let client: RuntimectlClient;
let connections = 0;
let releaseBlock: () => void = () => {};

beforeAll(async () => {
  const execHandler = async (request: { command: string }) => {
    if (request.command !== 'block') return undefined;
    await new Promise<void>((resolve) => (releaseBlock = resolve));
    return { stdout: 'done\n' };
  };
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider({ execHandler })], defaultProvider: 'memory' });
  const app = buildServer({ service, config: { version: '0.0.0-test', auth: { bearerToken: TOKEN } }, logger: pino({ level: 'silent' }), events: { pollIntervalMs: 50 } });
  app.server.on('connection', () => (connections += 1));
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close = async () => {
    await app.close();
    await service.stop();
  };
  client = createRuntimectlClient({ baseUrl, token: TOKEN, fetch: createNodeHttpFetch() });
});
afterAll(() => close?.());

describe('createNodeHttpFetch', () => {
  it("carries the client's JSON requests and the daemon's errors as classes, over one kept-alive connection", async () => {
    const before = connections;
    const { runtime } = await client.open({ conversation_id: 'c', sender_id: 's' });
    await client.writeFileBytes(runtime.runtime_id, 'a.txt', 'alpha\n');
    expect(await client.checkpoint({ runtime_id: runtime.runtime_id })).toMatchObject({ reused_backend_snapshot: false });
    const missing = await client.get('rt-missing').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(RuntimeNotFoundError);
    expect(missing).toMatchObject({ status: 404, details: { runtime_id: 'rt-missing' }, requestId: expect.any(String) });
    expect(connections - before).toBe(1);
  });

  it('streams bodies that are not JSON: an export, and the followed event log until its signal aborts', async () => {
    const { runtime } = await client.open({ conversation_id: 'c', sender_id: 's' });
    await client.writeFileBytes(runtime.runtime_id, 'b.txt', 'bravo\n');
    expect(await new Response((await client.export({ runtime_id: runtime.runtime_id, path: 'b.txt' })).body).text()).toBe('bravo\n');
    const abort = new AbortController();
    const types: string[] = [];
    const following = (async () => {
      for await (const event of client.followEvents({ runtime_id: runtime.runtime_id }, { signal: abort.signal })) {
        types.push(event.type);
        if (types.length === 2) abort.abort();
      }
    })();
    await client.checkpoint({ runtime_id: runtime.runtime_id });
    await following;
    expect(types).toEqual(['runtime.opened', 'checkpoint.created']);
  });

  it('gives up after the timeout with ClientTimeoutError', async () => {
    const { runtime } = await client.open({ conversation_id: 'c', sender_id: 's' });
    const impatient = createRuntimectlClient({ baseUrl, token: TOKEN, timeoutMs: 100, fetch: createNodeHttpFetch() });
    const error = await impatient.exec({ runtime_id: runtime.runtime_id, command: 'block' }).catch((e: unknown) => e);
    releaseBlock();
    expect(error).toBeInstanceOf(ClientTimeoutError);
  });

  it('a refused connection is DaemonUnreachableError saying the request was not sent', async () => {
    const nobody = createRuntimectlClient({ baseUrl: 'http://127.0.0.1:9', retries: 0, fetch: createNodeHttpFetch() });
    const error = await nobody.checkpoint({ runtime_id: 'rt-any' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonUnreachableError);
    expect(error).toMatchObject({ requestMayHaveRun: false, message: expect.stringMatching(/ECONNREFUSED/) });
  });
});
