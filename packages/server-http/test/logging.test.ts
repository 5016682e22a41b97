import { BackendGoneError } from '@runtimectl/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

describe('logging never writes secrets', () => {
  let server: TestServer;
  beforeEach(() => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } } });
  });
  afterEach(() => server.app.close());

  it('requests with the right, a wrong and a malformed token leave no token in the log output', async () => {
    const wrong = 'wrong-token-0b7e4c1d';
    const headers = [
      { authorization: `Bearer ${TEST_TOKEN}` },
      { authorization: `Bearer ${wrong}` },
      { authorization: `Token ${wrong}` },
    ];
    for (const header of headers) {
      await server.app.inject({ method: 'GET', url: '/api/v1/providers', headers: header });
      await server.app.inject({ method: 'POST', url: '/api/v1/runtimes/exec', headers: header, payload: { runtime_id: 'ghost', command: 'true' } });
      await server.app.inject({ method: 'GET', url: '/api/v1/unknown', headers: header });
    }
    const output = server.logText();
    expect(server.logs.length).toBeGreaterThan(10);
    expect(output).not.toContain(TEST_TOKEN);
    expect(output).not.toContain(wrong);
  });

  it('redacts the authorization header and provider keys even when something logs them', async () => {
    await server.app.ready();
    server.app.log.info(
      {
        req: { headers: { authorization: `Bearer ${TEST_TOKEN}` } },
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
        provider: { apiKey: 'e2b_key_123456' },
        config: { auth: { bearerToken: TEST_TOKEN } },
      },
      'debugging a request',
    );
    const output = server.logText();
    expect(output).toContain('debugging a request');
    expect(output).toContain('[redacted]');
    expect(output).not.toContain(TEST_TOKEN);
    expect(output).not.toContain('e2b_key_123456');
  });
});

describe('provider detail goes to the log, never to the caller', () => {
  let server: TestServer;
  beforeEach(() => {
    server = createTestServer();
  });
  afterEach(() => server.app.close());

  it('a backend gone with a provider id in its cause: the 409 body and last_error omit the id, the warn log line has it', async () => {
    const api = apiClient(server.app);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-gone', conversation_id: 'c', sender_id: 's' });
    const providerId = 'sbx_provider_native_7f3a9c';
    server.provider.failNext('exec', 1, new BackendGoneError('memory', 'exec', 'the sandbox is gone', new Error(`sandbox ${providerId} at /srv/sandboxes/${providerId} vanished`)));
    const failed = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-gone', command: 'true' });
    expect({ status: failed.status, code: failed.body.code }).toEqual({ status: 409, code: 'runtime_failed' });
    expect(JSON.stringify(failed.body)).not.toContain(providerId);
    const detail = await api.get('/api/v1/runtimes/rt-gone');
    expect(detail.body.last_error).toMatch(/the sandbox is gone/);
    expect(JSON.stringify(detail.body)).not.toContain(providerId);
    const warned = server.logs.filter((line) => line.level === 40 && JSON.stringify(line).includes(providerId));
    expect(warned, server.logText()).toHaveLength(1);
    expect(warned[0]).toMatchObject({ code: 'runtime_failed' });
  });
});
