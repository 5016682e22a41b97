import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { base64, createTestServer, type TestServer } from './test-server';

describe('body limit', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.app.close());

  it('accepts a file just under the default 10 MiB limit and refuses a body over it with 413 payload_too_large', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
    const sevenMiB = Buffer.alloc(7 * 1024 * 1024, 7);
    const accepted = await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'big.bin', content_base64: sevenMiB.toString('base64') });
    expect(accepted.status).toBe(200);
    const tooBig = await api.post('/api/v1/runtimes/write-file', {
      runtime_id: 'rt-a',
      path: 'huge.bin',
      content_base64: Buffer.alloc(8 * 1024 * 1024, 8).toString('base64'),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ error: expect.any(String), code: 'payload_too_large' });
    expect(tooBig.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('honours a configured limit', async () => {
    server = createTestServer({ config: { bodyLimitBytes: 1024 } });
    const api = apiClient(server.app);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
    const small = await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a', content_base64: base64('x'.repeat(500)) });
    expect(small.status).toBe(200);
    const large = await api.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-a', path: 'a', content_base64: base64('x'.repeat(1000)) });
    expect(large.status).toBe(413);
    expect(large.body.code).toBe('payload_too_large');
  });

  it('refuses a limit that is not a positive integer when the server is built, naming the key', () => {
    server = undefined;
    for (const bodyLimitBytes of [-1, 0, 1.5, Number.NaN]) {
      expect(() => createTestServer({ config: { bodyLimitBytes } }), String(bodyLimitBytes)).toThrow(/config\.bodyLimitBytes/);
    }
  });
});

describe('x-request-id', () => {
  let server: TestServer;
  afterEach(() => server.app.close());

  it('is on every response: success, error, unknown route and auth failure', async () => {
    server = createTestServer({ config: { auth: { bearerToken: 'secret-token' } } });
    const responses = [
      await server.app.inject({ method: 'GET', url: '/api/v1/health' }),
      await server.app.inject({ method: 'GET', url: '/api/v1/providers' }),
      await server.app.inject({ method: 'GET', url: '/api/v1/providers', headers: { authorization: 'Bearer secret-token' } }),
      await server.app.inject({ method: 'GET', url: '/nowhere', headers: { authorization: 'Bearer secret-token' } }),
      await server.app.inject({ method: 'GET', url: '/api/v1/runtimes/ghost', headers: { authorization: 'Bearer secret-token' } }),
    ];
    const ids = responses.map((response) => response.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes a sane incoming id and replaces an unsafe or oversized one', async () => {
    server = createTestServer();
    const sane = await server.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'client-42.retry:1' } });
    expect(sane.headers['x-request-id']).toBe('client-42.retry:1');
    for (const unsafe of ['has space', 'new\u0001line', 'x'.repeat(129), '']) {
      const replaced = await server.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': unsafe } });
      expect(replaced.headers['x-request-id'], JSON.stringify(unsafe)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is the request id in the log lines of that request', async () => {
    server = createTestServer();
    await server.app.inject({ method: 'GET', url: '/api/v1/providers', headers: { 'x-request-id': 'log-me' } });
    const completed = server.logs.find((line) => line.msg === 'request completed' && line.request_id === 'log-me');
    expect(completed).toMatchObject({ method: 'GET', route: '/api/v1/providers', status: 200 });
  });
});
