import { describe, expect, test } from 'vitest';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';
import type { ApiResponse } from './api-client';

function expectUnauthorized(response: ApiResponse, what: string): void {
  expect(response.status, what).toBe(401);
  expect(response.headers.get('www-authenticate'), what).toMatch(/^Bearer\b/i);
  expectApiError(response, 401, 'unauthorized');
}

/** Bearer auth, when the deployment has a token (skipped with the reason otherwise). */
export function authApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const token = options.token;

  describe('bearer auth', () => {
    test('a protected route without a token, with a wrong token or another scheme is 401 with WWW-Authenticate: Bearer', async (ctx) => {
      if (token === undefined) ctx.skip('no token given: the deployment is tested as unauthenticated');
      expectUnauthorized(await client.get('/api/v1/providers', { authorize: false }), 'no token');
      expectUnauthorized(
        await client.get('/api/v1/providers', { authorize: false, headers: { authorization: `Bearer ${token}-wrong` } }),
        'wrong token',
      );
      expectUnauthorized(
        await client.get('/api/v1/providers', { authorize: false, headers: { authorization: `Basic ${token}` } }),
        'Basic scheme',
      );
      expectUnauthorized(
        await client.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' }, { authorize: false }),
        'POST without a token',
      );
    }, testMs);

    test('the scheme is case-insensitive', async (ctx) => {
      if (token === undefined) ctx.skip('no token given');
      expectOk(await client.get('/api/v1/providers', { authorize: false, headers: { authorization: `bearer ${token}` } }));
      expectOk(await client.get('/api/v1/providers', { authorize: false, headers: { authorization: `BEARER ${token}` } }));
    }, testMs);

    test('health stays open while the documents, metrics and unknown routes need the token', async (ctx) => {
      if (token === undefined) ctx.skip('no token given');
      expectOk(await client.get('/api/v1/health', { authorize: false }));
      for (const path of ['/openapi.json', '/docs', '/metrics', '/api/v1/runtimes', '/api/v1/no-such-route']) {
        expectUnauthorized(await client.get(path, { authorize: false }), path);
      }
    }, testMs);
  });
}
