import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
