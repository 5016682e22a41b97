import { tokenSha256 } from '@runtimectl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyVerifier } from '../src/index';
import { apiClient } from './api-client';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const AGENT = 'agent-token-0123456789abcdef';
const TEAM = 'team-token-0123456789abcdef';
const MISSING_CHECKPOINT = `rtcp_${'f'.repeat(32)}`;

describe('keys scoped to runtimes', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const as = (token: string) => apiClient(server.app, { authorization: `Bearer ${token}` });

  beforeAll(async () => {
    server = createTestServer({
      config: {
        auth: {
          bearerToken: TEST_TOKEN,
          keys: [
            { name: 'agent', tokenSha256: tokenSha256(AGENT), scopes: ['exec', 'checkpoint'], runtimes: { ids: ['rt-own'] } },
            { name: 'team', tokenSha256: tokenSha256(TEAM), scopes: ['exec', 'checkpoint'], runtimes: { conversations: ['team-chat'] } },
          ],
        },
      },
    });
    await server.app.ready();
    const admin = as(TEST_TOKEN);
    for (const [runtime, conversation] of [['rt-own', 'c-own'], ['rt-other', 'c-other']] as const) {
      expect((await admin.post('/api/v1/runtimes/open', { runtime_id: runtime, conversation_id: conversation, sender_id: 's' })).status).toBe(200);
      await admin.post('/api/v1/runtimes/write-file', { runtime_id: runtime, path: 'who.txt', content_base64: Buffer.from(runtime).toString('base64') });
      ids[runtime] = (await admin.post('/api/v1/runtimes/checkpoint', { runtime_id: runtime })).body.checkpoint_id;
    }
    // A branch of the agent's runtime, made by someone else: still the agent's (it descends from rt-own).
    ids.branch = (await admin.post('/api/v1/runtimes/checkout', { checkpoint_id: ids['rt-own'] })).body.runtime.runtime_id;
  });
  afterAll(() => server.app.close());

  it("a key scoped to one runtime reaches it and its branches, and every other runtime or checkpoint reads as missing (404, the same body as for none)", async () => {
    const agent = as(AGENT);
    expect((await agent.post('/api/v1/runtimes/exec', { runtime_id: 'rt-own', command: 'cat who.txt' })).status).toBe(200);
    expect((await agent.post('/api/v1/runtimes/read-file', { runtime_id: ids.branch, path: 'who.txt' })).status).toBe(200);
    const hidden = await agent.post('/api/v1/runtimes/exec', { runtime_id: 'rt-other', command: 'true' });
    const missing = await agent.post('/api/v1/runtimes/exec', { runtime_id: 'rt-ghost', command: 'true' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ ...missing.body, error: missing.body.error.replace('rt-ghost', 'rt-other'), details: { runtime_id: 'rt-other' } });
    const refusals = [
      await agent.get('/api/v1/runtimes/rt-other'),
      await agent.get('/api/v1/runtimes/rt-other/checkpoints'),
      await agent.get(`/api/v1/checkpoints/${ids['rt-other']}`),
      await agent.post('/api/v1/runtimes/read-file', { checkpoint_id: ids['rt-other'], path: 'who.txt' }),
      await agent.post('/api/v1/runtimes/checkout', { checkpoint_id: ids['rt-other'] }),
      await agent.post('/api/v1/checkpoints/diff', { from_checkpoint_id: ids['rt-own'], to_runtime_id: 'rt-other' }),
      await agent.post('/api/v1/checkpoints/diff', { from_checkpoint_id: ids['rt-other'], to_runtime_id: 'rt-own' }),
      await agent.post('/api/v1/runtimes/close', { runtime_id: 'rt-other' }),
    ];
    expect(refusals.map((response) => [response.status, response.body.code])).toEqual([
      [404, 'runtime_not_found'],
      [404, 'runtime_not_found'],
      [404, 'checkpoint_not_found'],
      [404, 'checkpoint_not_found'],
      [404, 'checkpoint_not_found'],
      [404, 'runtime_not_found'],
      [404, 'checkpoint_not_found'],
      [404, 'runtime_not_found'],
    ]);
    expect((await agent.get(`/api/v1/checkpoints/${MISSING_CHECKPOINT}`)).body.code).toBe('checkpoint_not_found');
    const admin = as(TEST_TOKEN);
    expect((await admin.get('/api/v1/runtimes/rt-other')).body.runtime.status).toBe('idle');
  });

  it('lists and events show such a key only its runtimes', async () => {
    const agent = as(AGENT);
    const made = (await agent.post('/api/v1/runtimes/checkout', { checkpoint_id: ids['rt-own'] })).body.runtime.runtime_id;
    const listed = (await agent.get('/api/v1/runtimes?limit=500')).body.runtimes.map((runtime: { runtime_id: string }) => runtime.runtime_id);
    expect(listed.sort()).toEqual(['rt-own', ids.branch, made].sort());
    const events = (await agent.get('/api/v1/events?limit=500')).body.events as Array<{ runtime_id: string | null }>;
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((event) => event.runtime_id))).toEqual(new Set(['rt-own', ids.branch, made]));
    const all = (await as(TEST_TOKEN).get('/api/v1/events?limit=500')).body.events as Array<{ runtime_id: string | null }>;
    expect(all.some((event) => event.runtime_id === 'rt-other')).toBe(true);
  });

  it('open: a runtime the key lists, or one in its conversations; attaching to one in scope; anything else is 403 forbidden', async () => {
    const agent = as(AGENT);
    expect((await agent.post('/api/v1/runtimes/open', { runtime_id: 'rt-own', conversation_id: 'c-own', sender_id: 's' })).body.created).toBe(false);
    const elsewhere = await agent.post('/api/v1/runtimes/open', { conversation_id: 'c-own', sender_id: 's' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toMatchObject({ code: 'forbidden', details: { scope: 'runtimes', key: 'agent' } });
    expect((await agent.post('/api/v1/runtimes/open', { runtime_id: 'rt-other', conversation_id: 'c-other', sender_id: 's' })).status).toBe(403);
    const team = as(TEAM);
    const opened = await team.post('/api/v1/runtimes/open', { conversation_id: 'team-chat', sender_id: 's' });
    expect(opened.status).toBe(200);
    const runtimeId = opened.body.runtime.runtime_id;
    expect((await team.post('/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' })).status).toBe(200);
    expect((await team.post('/api/v1/runtimes/exec', { runtime_id: 'rt-own', command: 'true' })).status).toBe(404);
    expect((await agent.get(`/api/v1/runtimes/${runtimeId}`)).status).toBe(404);
  });

  it('a key scoped to runtimes cannot be admin: the configuration is refused', () => {
    expect(() => new ApiKeyVerifier({ keys: [{ name: 'x', tokenSha256: tokenSha256('x'), scopes: ['admin'], runtimes: { ids: ['rt-own'] } }] })).toThrow(/cannot be admin/);
  });

  it('an agent that rolled back by checkout 300 times still reaches its newest branch: the lineage root answers first', async () => {
    const agent = as(AGENT);
    let runtimeId = 'rt-own';
    for (let depth = 0; depth < 300; depth++) {
      const checkpoint = await agent.post('/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
      runtimeId = (await agent.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id })).body.runtime.runtime_id;
    }
    expect((await agent.post('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path: 'who.txt' })).status).toBe(200);
    expect((await as(TEAM).post('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path: 'who.txt' })).body.code).toBe('runtime_not_found');
  });
});
