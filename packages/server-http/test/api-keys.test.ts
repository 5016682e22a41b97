import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256, type ApiKeyScope } from '@runtimectl/core';
import { ApiKeyVerifier, type ApiKeyConfig } from '../src/index';
import { apiClient } from './api-client';
import { concreteUrl } from './route-walk';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const token = (name: string) => `key-${name}-0123456789abcdef`;
const key = (name: string, scopes: ApiKeyScope[], extra: Partial<ApiKeyConfig> = {}): ApiKeyConfig => ({ name, tokenSha256: tokenSha256(token(name)), scopes, ...extra });
const KEYS = [
  key('reader', ['read']),
  key('runner', ['exec']),
  key('brancher', ['checkpoint']),
  key('operator', ['admin']),
  key('expired', ['admin'], { expiresAtMs: Date.now() - 1 }),
];

/**
 * What each route needs: the specification this test holds the server to. A route the server
 * registers that is missing here fails the walk below, so a new route must be placed.
 */
const SCOPE_OF: Record<string, ApiKeyScope | 'public' | 'peer'> = {
  'GET /api/v1/health': 'public',
  'GET /api/v1/ready': 'public',
  'GET /api/v1/providers': 'read',
  'GET /api/v1/runtimes': 'read',
  'GET /api/v1/runtimes/:runtime_id': 'read',
  'GET /api/v1/runtimes/:runtime_id/checkpoints': 'read',
  'GET /api/v1/checkpoints/:checkpoint_id': 'read',
  'GET /api/v1/checkpoints/:checkpoint_id/tree': 'read',
  'POST /api/v1/checkpoints/diff': 'read',
  'POST /api/v1/runtimes/read-file': 'read',
  'POST /api/v1/runtimes/stat': 'read',
  'POST /api/v1/runtimes/search': 'read',
  'POST /api/v1/runtimes/export': 'read',
  'GET /api/v1/events': 'read',
  'GET /openapi.json': 'read',
  'POST /api/v1/runtimes/exec': 'exec',
  'POST /api/v1/runtimes/write-file': 'exec',
  'POST /api/v1/runtimes/mkdir': 'exec',
  'POST /api/v1/runtimes/open': 'checkpoint',
  'POST /api/v1/runtimes/update': 'checkpoint',
  'POST /api/v1/runtimes/close': 'checkpoint',
  'POST /api/v1/runtimes/checkpoint': 'checkpoint',
  'POST /api/v1/runtimes/checkout': 'checkpoint',
  'POST /api/v1/runtimes/fork': 'checkpoint',
  'POST /api/v1/runtimes/pause': 'checkpoint',
  'POST /api/v1/runtimes/resume': 'checkpoint',
  'POST /api/v1/runtimes/checkpoint/pin': 'checkpoint',
  'POST /api/v1/runtimes/checkpoint/delete-snapshot': 'admin',
  'GET /api/v1/retention/preview': 'admin',
  'GET /api/v1/nodes': 'admin',
  'GET /api/v1/webhooks': 'admin',
  'GET /api/v1/webhooks/:webhook_id/deliveries': 'admin',
  'GET /api/v1/keys': 'admin',
  'POST /api/v1/keys': 'admin',
  'DELETE /api/v1/keys/:name': 'admin',
  'GET /metrics': 'admin',
};
const scopeOf = (method: string, url: string) => (url.startsWith('/docs') ? 'read' : SCOPE_OF[`${method === 'HEAD' ? 'GET' : method} ${url}`]);

describe('API keys with scopes', () => {
  let server: TestServer;
  const routes: Array<{ method: string; url: string }> = [];

  beforeAll(async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN, keys: KEYS } } });
    server.app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await server.app.ready();
    await apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` }).post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
  });
  afterAll(() => server.app.close());

  const call = (name: string, method: string, url: string) =>
    server.app.inject({
      method: method as HTTPMethods,
      url: concreteUrl(url),
      headers: { authorization: `Bearer ${token(name)}` },
      ...(method === 'POST' ? { payload: { runtime_id: 'rt-a' } } : {}),
    });

  it('every route the server registers has its scope in the specification', () => {
    const fenced = routes.filter(({ url }) => url !== '/api/v1/fleet/hello');
    expect(fenced.length).toBeGreaterThan(30);
    expect(fenced.filter(({ method, url }) => scopeOf(method, url) === undefined).map(({ method, url }) => `${method} ${url}`)).toEqual([]);
  });

  for (const [name, scopes] of [
    ['reader', ['read']],
    ['runner', ['read', 'exec']],
    ['brancher', ['read', 'checkpoint']],
    ['operator', ['read', 'exec', 'checkpoint', 'admin']],
  ] as const) {
    it(`a key with ${name === 'operator' ? 'admin' : scopes.at(-1)} passes every route needing ${scopes.join(', ')} and gets 403 forbidden naming the scope elsewhere`, async () => {
      const wrong: string[] = [];
      for (const { method, url } of routes) {
        const needed = scopeOf(method, url);
        if (needed === undefined || needed === 'public' || needed === 'peer') continue;
        const response = await call(name, method, url);
        const allowed = (scopes as readonly string[]).includes(needed);
        // HEAD answers carry no body: their status says it.
        const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
        const body = method === 'HEAD' ? { code: 'forbidden', details: { scope: needed, key: name } } : json ? response.json() : {};
        const ok = allowed
          ? response.statusCode !== 401 && response.statusCode !== 403
          : response.statusCode === 403 && body.code === 'forbidden' && body.details.scope === needed && body.details.key === name;
        if (!ok) wrong.push(`${method} ${url} (needs ${needed}) -> ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('the bearer token of before is an admin key', async () => {
    const api = apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` });
    expect((await api.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: `rtcp_${'0'.repeat(32)}` })).status).toBe(404);
    expect((await api.get('/api/v1/webhooks')).status).toBe(200);
  });

  it('a key past its expiry, an unknown token and no token are 401, saying which key expired but never a token', async () => {
    const expired = await call('expired', 'GET', '/api/v1/runtimes');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'unauthorized', error: 'the API key expired has expired' });
    expect(expired.body).not.toContain(token('expired'));
    expect((await call('nobody', 'GET', '/api/v1/runtimes')).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/runtimes' })).statusCode).toBe(401);
  });

  it('a valid key of any scope on an unknown route gets 404, and without a key 401 (routes cannot be probed)', async () => {
    expect((await call('reader', 'GET', '/api/v1/nothing-here')).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/nothing-here' })).statusCode).toBe(401);
  });

  it('a refused key changes nothing: a read-only key cannot write, checkpoint or close', async () => {
    const admin = apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` });
    await admin.post('/api/v1/runtimes/open', { runtime_id: 'rt-kept', conversation_id: 'c', sender_id: 's' });
    const reader = apiClient(server.app, { authorization: `Bearer ${token('reader')}` });
    expect((await reader.post('/api/v1/runtimes/write-file', { runtime_id: 'rt-kept', path: 'f.txt', content_base64: 'aGk=' })).status).toBe(403);
    expect((await reader.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-kept' })).status).toBe(403);
    expect((await reader.post('/api/v1/runtimes/close', { runtime_id: 'rt-kept' })).status).toBe(403);
    expect((await admin.get('/api/v1/runtimes/rt-kept')).body.runtime.status).toBe('idle');
    expect((await admin.get('/api/v1/runtimes/rt-kept/checkpoints')).body.checkpoints).toEqual([]);
    expect((await reader.post('/api/v1/runtimes/stat', { runtime_id: 'rt-kept', path: 'f.txt' })).body.exists).toBe(false);
  });
});

describe('ApiKeyVerifier', () => {
  it('refuses a configuration that admits no one, a malformed hash, a key without scopes, a name or token twice', () => {
    expect(() => new ApiKeyVerifier({})).toThrow(/bearerToken or at least one key/);
    expect(() => new ApiKeyVerifier({ keys: [{ name: 'a', tokenSha256: 'abc', scopes: ['read'] }] })).toThrow(/64 lowercase hex/);
    expect(() => new ApiKeyVerifier({ keys: [key('a', [])] })).toThrow(/at least one scope/);
    expect(() => new ApiKeyVerifier({ keys: [key('a', ['read']), { ...key('b', ['read']), name: 'a' }] })).toThrow(/two keys have this name/);
    expect(() => new ApiKeyVerifier({ keys: [key('a', ['read']), { ...key('a', ['read']), name: 'b' }] })).toThrow(/same token/);
  });

  it('holds only hashes: a key is found by the SHA-256 of the token presented, in any scheme case', async () => {
    const verifier = new ApiKeyVerifier({ keys: [key('a', ['exec'])] });
    expect(verifier.verify(`bearer ${token('a')}`, Date.now())).toEqual({ ok: true, key: { name: 'a', scopes: ['exec'] } });
    expect((await verifier.verify(`Bearer ${tokenSha256(token('a'))}`, Date.now())).ok).toBe(false);
    expect((await verifier.verify(`Basic ${token('a')}`, Date.now())).ok).toBe(false);
  });

  it('no key may take the name the bearer token goes by', () => {
    expect(() => new ApiKeyVerifier({ bearerToken: TEST_TOKEN, keys: [key('bearer_token', ['read'])] })).toThrow(/the bearer token goes by it/);
  });
});
