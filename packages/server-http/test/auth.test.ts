import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { concreteUrl } from './route-walk';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

interface RegisteredRoute {
  method: string;
  url: string;
}

describe('bearer auth', () => {
  let server: TestServer;
  const routes: RegisteredRoute[] = [];

  beforeAll(async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } } });
    // Registered before ready(): every route the plugin adds, now or in the future, passes through here.
    server.app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await server.app.ready();
    await apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` }).post('/api/v1/runtimes/open', {
      runtime_id: 'rt-a',
      conversation_id: 'c',
      sender_id: 's',
    });
  });
  afterAll(() => server.app.close());

  it('collects the whole API surface (the walk below would prove nothing on an empty list)', () => {
    const urls = new Set(routes.map((route) => route.url));
    for (const url of ['/api/v1/health', '/api/v1/runtimes/open', '/api/v1/runtimes/:runtime_id', '/openapi.json', '/metrics', '/docs']) {
      expect(urls, url).toContain(url);
    }
    expect(routes.length).toBeGreaterThan(30);
  });

  it('every registered route except GET/HEAD /api/v1/health answers 401 with WWW-Authenticate without a token', async () => {
    const unprotected: string[] = [];
    for (const route of routes) {
      const isHealth = route.url === '/api/v1/health' && (route.method === 'GET' || route.method === 'HEAD');
      const response = await server.app.inject({
        method: route.method as HTTPMethods,
        url: concreteUrl(route.url),
        ...(route.method === 'POST' ? { payload: { runtime_id: 'rt-a' } } : {}),
      });
      if (isHealth) {
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(200);
        continue;
      }
      if (response.statusCode !== 401 || !/^Bearer\b/i.test(String(response.headers['www-authenticate']))) {
        unprotected.push(`${route.method} ${route.url} -> ${response.statusCode}`);
      } else if (route.method !== 'HEAD') {
        expect(response.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
      }
    }
    expect(unprotected).toEqual([]);
  });

  it('a wrong token, another scheme, a malformed header and an empty bearer are all 401', async () => {
    for (const authorization of [`Bearer ${TEST_TOKEN}x`, `Bearer ${TEST_TOKEN.slice(1)}`, `Basic ${TEST_TOKEN}`, TEST_TOKEN, 'Bearer', 'Bearer ', `Bearer ${TEST_TOKEN} extra`]) {
      const response = await server.app.inject({ method: 'GET', url: '/api/v1/providers', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
    }
  });

  it('the scheme is case-insensitive', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const response = await server.app.inject({ method: 'GET', url: '/api/v1/providers', headers: { authorization: `${scheme} ${TEST_TOKEN}` } });
      expect(response.statusCode, scheme).toBe(200);
    }
  });

  it('with the token, docs, openapi and metrics are served', async () => {
    const headers = { authorization: `Bearer ${TEST_TOKEN}` };
    for (const url of ['/openapi.json', '/docs/', '/metrics']) {
      expect((await server.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(200);
    }
  });

  it('unknown routes are 401 before they are 404, so routes cannot be probed', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/v1/secret-admin' });
    expect(anonymous.statusCode).toBe(401);
    const authenticated = await server.app.inject({ method: 'GET', url: '/api/v1/secret-admin', headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(authenticated.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('an empty configured token is refused when the server is built', () => {
    expect(() => createTestServer({ config: { auth: { bearerToken: '' } } })).toThrow(/config\.auth\.bearerToken/);
  });
});
