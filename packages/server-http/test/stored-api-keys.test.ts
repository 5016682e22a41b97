import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, StoreUnavailableError, tokenSha256 } from '@runtimectl/core';
import { apiClient } from './api-client';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const CONFIGURED_TOKEN = 'configured-reader-token-0123456789';

describe('stored API keys: created and revoked at run time', () => {
  let server: TestServer;
  let admin: ReturnType<typeof apiClient>;
  const as = (token: string) => apiClient(server.app, { authorization: `Bearer ${token}` });

  beforeEach(async () => {
    const store = new MemoryRuntimeStore();
    server = createTestServer({
      store,
      config: { auth: { bearerToken: TEST_TOKEN, keys: [{ name: 'ci', tokenSha256: tokenSha256(CONFIGURED_TOKEN), scopes: ['read'] }], store } },
    });
    await server.app.ready();
    admin = as(TEST_TOKEN);
  });
  afterEach(() => server.app.close());

  it('a created key answers its token once, works at once with its scopes, and lists without its token or hash', async () => {
    const created = await admin.post('/api/v1/keys', { name: 'agent', scopes: ['exec', 'checkpoint'] });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^rtk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key).toMatchObject({ name: 'agent', scopes: ['exec', 'checkpoint'], source: 'stored', runtimes: null, expires_at_ms: null });
    const agent = as(created.body.token);
    expect((await agent.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' })).status).toBe(200);
    expect((await agent.get('/api/v1/retention/preview')).body).toMatchObject({ code: 'forbidden', details: { scope: 'admin', key: 'agent' } });
    const listed = await admin.get('/api/v1/keys');
    expect(listed.body.keys.map((key: { name: string; source: string }) => `${key.source}:${key.name}`)).toEqual(['config:bearer_token', 'config:ci', 'stored:agent']);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(created.body.token);
    expect(text).not.toContain(tokenSha256(created.body.token));
    expect(server.logText()).not.toContain(created.body.token);
  });

  it('a revoked key is refused 401 from the next request on, and revoking it again is 404 api_key_not_found', async () => {
    const { token } = (await admin.post('/api/v1/keys', { name: 'agent', scopes: ['read'] })).body;
    expect((await as(token).get('/api/v1/runtimes')).status).toBe(200);
    const revoked = await admin.call('DELETE', '/api/v1/keys/agent');
    expect(revoked.body).toEqual({ revoked: true, name: 'agent' });
    expect((await as(token).get('/api/v1/runtimes')).body).toMatchObject({ code: 'unauthorized' });
    expect((await admin.call('DELETE', '/api/v1/keys/agent')).body).toMatchObject({ code: 'api_key_not_found', details: { key: 'agent' } });
  });

  it("a name a configured key, the bearer token or a stored key has is 409 api_key_exists; a configured key cannot be revoked here", async () => {
    await admin.post('/api/v1/keys', { name: 'agent', scopes: ['read'] });
    for (const name of ['agent', 'ci', 'bearer_token']) {
      const again = await admin.post('/api/v1/keys', { name, scopes: ['read'] });
      expect(again.status, name).toBe(409);
      expect(again.body, name).toMatchObject({ code: 'api_key_exists', details: { key: name } });
    }
    expect((await admin.call('DELETE', '/api/v1/keys/ci')).status).toBe(404);
    expect((await as(CONFIGURED_TOKEN).get('/api/v1/runtimes')).status).toBe(200);
  });

  it('a key scoped to a runtime reaches it and its checkouts only; everything else reads as missing', async () => {
    await admin.post('/api/v1/runtimes/open', { runtime_id: 'rt-mine', conversation_id: 'c', sender_id: 's' });
    await admin.post('/api/v1/runtimes/open', { runtime_id: 'rt-other', conversation_id: 'c', sender_id: 's' });
    const { token } = (await admin.post('/api/v1/keys', { name: 'agent', scopes: ['exec', 'checkpoint'], runtimes: ['rt-mine'] })).body;
    const agent = as(token);
    const checkpoint = await agent.post('/api/v1/runtimes/checkpoint', { runtime_id: 'rt-mine' });
    const checkout = await agent.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id });
    expect((await agent.get(`/api/v1/runtimes/${checkout.body.runtime.runtime_id}`)).status).toBe(200);
    expect((await agent.get('/api/v1/runtimes/rt-other')).body).toMatchObject({ code: 'runtime_not_found' });
    expect((await agent.get('/api/v1/runtimes')).body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id).sort()).toEqual(
      [checkout.body.runtime.runtime_id, 'rt-mine'].sort(),
    );
  });

  it('a key reaching the runtimes it opens: opens new ones, reaches them and their checkouts, and nothing else, not even by re-opening an existing id', async () => {
    await admin.post('/api/v1/runtimes/open', { runtime_id: 'rt-admins', conversation_id: 'c', sender_id: 's' });
    const { token, key } = (await admin.post('/api/v1/keys', { name: 'agent', scopes: ['exec', 'checkpoint'], opened_runtimes: true })).body;
    expect(key).toMatchObject({ opened_runtimes: true, runtimes: null, conversations: null });
    const agent = as(token);
    const generated = (await agent.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' })).body.runtime.runtime_id;
    expect((await agent.post('/api/v1/runtimes/open', { runtime_id: 'rt-named', conversation_id: 'c', sender_id: 's' })).status).toBe(200);
    const checkpoint = await agent.post('/api/v1/runtimes/checkpoint', { runtime_id: generated });
    const branch = (await agent.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id })).body.runtime.runtime_id;
    const listed = (await agent.get('/api/v1/runtimes')).body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id);
    expect(listed.sort()).toEqual([generated, 'rt-named', branch].sort());
    expect((await admin.get(`/api/v1/runtimes/${generated}`)).body.opened_by_key).toBe('agent');
    // A branch is reached through its lineage; only open records a key.
    expect((await admin.get(`/api/v1/runtimes/${branch}`)).body.opened_by_key).toBeNull();
    expect((await admin.get('/api/v1/runtimes/rt-admins')).body.opened_by_key).toBe('bearer_token');
    expect((await agent.get('/api/v1/runtimes/rt-admins')).body).toMatchObject({ code: 'runtime_not_found' });
    const reopen = await agent.post('/api/v1/runtimes/open', { runtime_id: 'rt-admins', conversation_id: 'c', sender_id: 's' });
    expect(reopen.body).toMatchObject({ code: 'forbidden', details: { scope: 'runtimes', key: 'agent' } });
    expect(JSON.stringify(reopen.body)).not.toContain('"status"');
    expect((await admin.post('/api/v1/keys', { name: 'boss', scopes: ['admin'], opened_runtimes: true })).body).toMatchObject({ code: 'invalid_request' });
  });

  it('an expired stored key is 401 naming it; a past expiry, admin with runtimes, an unknown scope or a bad name is refused 400 and stores nothing', async () => {
    const { token } = (await admin.post('/api/v1/keys', { name: 'brief', scopes: ['read'], expires_at_ms: Date.now() + 50 })).body;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await as(token).get('/api/v1/runtimes')).body).toMatchObject({ code: 'unauthorized', error: 'the API key brief has expired' });
    for (const body of [
      { name: 'late', scopes: ['read'], expires_at_ms: Date.now() - 1 },
      { name: 'boss', scopes: ['admin'], runtimes: ['rt-a'] },
      { name: 'root', scopes: ['root'] },
      { name: 'a b', scopes: ['read'] },
      { name: 'x', scopes: [] },
    ]) {
      expect((await admin.post('/api/v1/keys', body)).body, JSON.stringify(body)).toMatchObject({ code: 'invalid_request' });
    }
    expect((await admin.get('/api/v1/keys')).body.keys.filter((key: { source: string }) => key.source === 'stored').map((key: { name: string }) => key.name)).toEqual(['brief']);
  });

  it('only admin keys manage keys: a stored exec key cannot create, list or revoke one (403 forbidden)', async () => {
    const { token } = (await admin.post('/api/v1/keys', { name: 'agent', scopes: ['exec', 'checkpoint'] })).body;
    const agent = as(token);
    for (const response of [await agent.post('/api/v1/keys', { name: 'mine', scopes: ['admin'] }), await agent.get('/api/v1/keys'), await agent.call('DELETE', '/api/v1/keys/agent')]) {
      expect(response.body).toMatchObject({ code: 'forbidden', details: { scope: 'admin' } });
    }
  });

  it('a store that cannot be read answers 503 store_unavailable for an unknown token, while configured keys keep working', async () => {
    const store = server.store;
    store.findApiKey = async () => {
      throw new StoreUnavailableError('the database is unreachable', 1000);
    };
    expect((await as('unknown-token-0123456789').get('/api/v1/runtimes')).body).toMatchObject({ code: 'store_unavailable' });
    expect((await as(CONFIGURED_TOKEN).get('/api/v1/runtimes')).status).toBe(200);
    expect((await admin.get('/api/v1/runtimes')).status).toBe(200);
  });
});

describe('keys on a daemon without a key store or without auth', () => {
  it('without a store: lists the configured keys and refuses to create one (400, saying why)', async () => {
    const server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } } });
    const admin = apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` });
    expect((await admin.get('/api/v1/keys')).body.keys.map((key: { name: string }) => key.name)).toEqual(['bearer_token']);
    expect((await admin.post('/api/v1/keys', { name: 'agent', scopes: ['read'] })).body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('key store') });
    await server.app.close();
  });

  it('without auth: an empty list, and creating a key is refused (400: no key would ever be checked)', async () => {
    const server = createTestServer();
    const api = apiClient(server.app);
    expect((await api.get('/api/v1/keys')).body).toEqual({ keys: [] });
    expect((await api.post('/api/v1/keys', { name: 'agent', scopes: ['read'] })).body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('without auth') });
    await server.app.close();
  });
});
