import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback, rawRequest } from './raw-http';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

describe('Host header (DNS rebinding)', () => {
  let server: TestServer;
  afterEach(() => server.app.close());

  it('without auth, serves loopback host names with any port and refuses any other Host with 421 host_not_allowed', async () => {
    server = createTestServer();
    const port = await listenOnLoopback(server.app);
    for (const host of ['localhost', `localhost:${port}`, 'LOCALHOST:1', '127.0.0.1', `127.0.0.1:${port}`, '127.8.9.10:80', '[::1]', `[::1]:${port}`]) {
      const served = await rawRequest(port, { path: '/api/v1/providers', headers: { host } });
      expect(served.status, host).toBe(200);
    }
    for (const host of ['attacker.example.com', `attacker.example.com:${port}`, 'localhost.attacker.example', '10.0.0.1', '[::2]:80', '127.0.0.1.nip.io']) {
      const refused = await rawRequest(port, { path: '/api/v1/providers', headers: { host } });
      expect(refused.status, host).toBe(421);
      expect(refused.body, host).toEqual({ error: expect.stringContaining('allowed_hosts'), code: 'host_not_allowed' });
      expect(refused.headers['x-request-id'], host).toEqual(expect.any(String));
    }
  });

  it('refuses a rebinding host on every route, the health check and unknown routes included', async () => {
    server = createTestServer();
    const port = await listenOnLoopback(server.app);
    for (const path of ['/api/v1/health', '/nowhere', '/metrics', '/openapi.json']) {
      const refused = await rawRequest(port, { path, headers: { host: 'rebind.example.com' } });
      expect(refused.status, path).toBe(421);
    }
    const open = await rawRequest(port, {
      method: 'POST',
      path: '/api/v1/runtimes/open',
      headers: { host: 'rebind.example.com', 'content-type': 'application/json' },
      body: JSON.stringify({ runtime_id: 'rt-rebound', conversation_id: 'c', sender_id: 's' }),
    });
    expect(open.status).toBe(421);
    expect(await server.service.get('rt-rebound').catch((error: { code?: string }) => error.code)).toBe('runtime_not_found');
  });

  it('without auth, also serves the configured host names, case-insensitively and with any port', async () => {
    server = createTestServer({ config: { allowedHosts: ['runtimed.internal', 'Box.LAN'] } });
    const port = await listenOnLoopback(server.app);
    for (const host of ['runtimed.internal', 'runtimed.internal:7333', 'box.lan:1', 'localhost']) {
      expect((await rawRequest(port, { path: '/api/v1/providers', headers: { host } })).status, host).toBe(200);
    }
    expect((await rawRequest(port, { path: '/api/v1/providers', headers: { host: 'other.internal' } })).status).toBe(421);
  });

  it('with auth on, does not restrict Host: the token is what keeps rebinding pages out', async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } } });
    const port = await listenOnLoopback(server.app);
    const served = await rawRequest(port, { path: '/api/v1/providers', headers: { host: 'runtimed.example.com', authorization: `Bearer ${TEST_TOKEN}` } });
    expect(served.status).toBe(200);
    const unauthenticated = await rawRequest(port, { path: '/api/v1/providers', headers: { host: 'runtimed.example.com' } });
    expect(unauthenticated.status).toBe(401);
  });
});
