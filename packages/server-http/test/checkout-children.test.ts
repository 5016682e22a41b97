import { RuntimeCheckoutChildrenResultSchema, RuntimeCheckoutResultSchema, RuntimeForkResultSchema } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { createTestServer } from './test-server';

const API = '/api/v1/runtimes';
const key = (name: string) => ({ 'idempotency-key': `key-${name}` });

/** A server (Idempotency-Key on) over a memory provider whose checkouts wait `delayMs` and are counted. */
async function withCheckpoint(delayMs = 0) {
  const inner = createMemoryProvider();
  const counter = { checkouts: 0 };
  const provider = delegatingProvider(inner, {
    checkout: async (request) => {
      counter.checkouts += 1;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.checkout!(request);
    },
  });
  const server = createTestServer({ providers: [provider], idempotency: {} });
  const api = apiClient(server.app);
  const opened = await api.post(`${API}/open`, { runtime_id: 'nway', conversation_id: 'c', sender_id: 's' });
  const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: opened.body.runtime.runtime_id });
  return { server, api, counter, checkpointId: checkpoint.body.checkpoint_id as string };
}

describe('POST /api/v1/runtimes/checkout with count', () => {
  it('without count answers exactly the single-child shape; with count one result per child', async () => {
    const { api, checkpointId } = await withCheckpoint();
    const single = await api.post(`${API}/checkout`, { checkpoint_id: checkpointId });
    expect(single.status).toBe(200);
    expect(RuntimeCheckoutResultSchema.strict().parse(single.body).runtime.runtime_id).toMatch(/^nway:checkout:/);
    const many = await api.post(`${API}/checkout`, { checkpoint_id: checkpointId, count: 3 });
    expect(many.status).toBe(200);
    const parsed = RuntimeCheckoutChildrenResultSchema.strict().parse(many.body);
    expect(parsed).toMatchObject({ checkpoint_id: checkpointId, source_runtime_id: 'nway' });
    expect(parsed.results.map((child) => ('runtime' in child ? child.runtime.status : child.error.code))).toEqual(['idle', 'idle', 'idle']);
  });

  it('refuses count 0, 101 and 2.5 with 400 invalid_request, creating nothing', async () => {
    const { server, api, counter, checkpointId } = await withCheckpoint();
    for (const count of [0, 101, 2.5, '2']) {
      const refused = await api.post(`${API}/checkout`, { checkpoint_id: checkpointId, count });
      expect({ count, status: refused.status, code: refused.body.code }).toEqual({ count, status: 400, code: 'invalid_request' });
    }
    expect(counter.checkouts).toBe(0);
    expect((await server.service.list({})).runtimes).toHaveLength(1);
  });

  it('a failed child is answered in its place with its error code; the request answers 200', async () => {
    const server = createTestServer({ idempotency: {} });
    const api = apiClient(server.app);
    const opened = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
    const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: opened.body.runtime.runtime_id });
    server.provider.failNext('checkout');
    const answer = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id, count: 3 });
    expect(answer.status).toBe(200);
    const codes = RuntimeCheckoutChildrenResultSchema.parse(answer.body).results.map((child) => ('runtime' in child ? 'ok' : child.error.code));
    expect(codes.sort()).toEqual(['ok', 'ok', 'provider_error']);
  });

  it('a retry with the same Idempotency-Key answers the stored children and creates no extra ones', async () => {
    const { server, api, counter, checkpointId } = await withCheckpoint();
    const body = { checkpoint_id: checkpointId, count: 4 };
    const first = await api.post(`${API}/checkout`, body, key('nway'));
    const retry = await api.post(`${API}/checkout`, body, key('nway'));
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(counter.checkouts).toBe(4);
    expect((await server.service.list({})).runtimes).toHaveLength(5);
  });

  it('a retry that arrives while the N-way checkout runs waits for it and creates no extra children', async () => {
    const { server, api, counter, checkpointId } = await withCheckpoint(100);
    const body = { checkpoint_id: checkpointId, count: 3 };
    const [first, second] = await Promise.all([api.post(`${API}/checkout`, body, key('race')), api.post(`${API}/checkout`, body, key('race'))]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(counter.checkouts).toBe(3);
    expect((await server.service.list({})).runtimes).toHaveLength(4);
  });
});

describe('POST /api/v1/runtimes/fork', () => {
  it('checkpoints the runtime once and checks that checkpoint out count ways', async () => {
    const { server, api } = await withCheckpoint();
    await api.post(`${API}/write-file`, { runtime_id: 'nway', path: 'a.txt', content_base64: Buffer.from('forked').toString('base64') });
    const forked = await api.post(`${API}/fork`, { runtime_id: 'nway', count: 2, name: 'branch point' });
    expect(forked.status).toBe(200);
    const parsed = RuntimeForkResultSchema.strict().parse(forked.body);
    expect(parsed).toMatchObject({ source_runtime_id: 'nway', reused_backend_snapshot: false });
    const checkpoint = await api.get(`/api/v1/checkpoints/${parsed.checkpoint_id}`);
    expect(checkpoint.body).toMatchObject({ runtime_id: 'nway', name: 'branch point' });
    for (const child of parsed.results) {
      if (!('runtime' in child)) throw new Error(JSON.stringify(child));
      const read = await api.post(`${API}/read-file`, { runtime_id: child.runtime.runtime_id, path: 'a.txt' });
      expect(Buffer.from(read.body.content_base64, 'base64').toString()).toBe('forked');
    }
    expect((await server.service.list({})).runtimes).toHaveLength(3);
  });

  it('count defaults to 1; 0 and 101 are refused with 400 invalid_request', async () => {
    const { api } = await withCheckpoint();
    const one = await api.post(`${API}/fork`, { runtime_id: 'nway' });
    expect(RuntimeForkResultSchema.parse(one.body).results).toHaveLength(1);
    for (const count of [0, 101]) expect((await api.post(`${API}/fork`, { runtime_id: 'nway', count })).body.code).toBe('invalid_request');
  });

  it('a retried fork with the same Idempotency-Key answers the stored result: one checkpoint, no extra children', async () => {
    const { server, api, counter } = await withCheckpoint();
    const first = await api.post(`${API}/fork`, { runtime_id: 'nway', count: 2 }, key('fork'));
    const retry = await api.post(`${API}/fork`, { runtime_id: 'nway', count: 2 }, key('fork'));
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(counter.checkouts).toBe(2);
    expect((await server.service.listCheckpoints('nway')).checkpoints).toHaveLength(2);
  });
});
