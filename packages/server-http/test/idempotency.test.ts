import { MemoryRuntimeStore, type IdempotencyRecord } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';
import type { IdempotencyOptions } from '../src/index';
import { apiClient } from './api-client';
import { FakeNodeDirectory } from './fleet-directory';
import { createTestServer } from './test-server';

const API = '/api/v1/runtimes';
const key = (name: string) => ({ 'idempotency-key': `key-${name}` });
/** A claim that never wins over a stored one: reads the record of its key. */
const ANY_CLAIM: IdempotencyRecord = {
  key: '',
  fingerprint: 'x',
  state: 'in_flight',
  ownerId: 'x',
  statusCode: null,
  responseBody: null,
  createdAtMs: Date.now(),
  expiresAtMs: Date.now() + 60_000,
};

async function withRuntime() {
  const server = createTestServer({ idempotency: {} });
  const api = apiClient(server.app);
  const opened = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
  return { server, api, runtimeId: opened.body.runtime.runtime_id as string };
}

/** A server whose `exec` prints `bytes` of output per call and counts the calls. */
async function withLoudExec(bytes: number, idempotency: Partial<IdempotencyOptions>) {
  const counter = { execs: 0 };
  const provider = createMemoryProvider({
    execHandler: async () => {
      counter.execs += 1;
      return { stdout: 'y\n'.repeat(bytes / 2) };
    },
  });
  const server = createTestServer({ providers: [provider], idempotency });
  const api = apiClient(server.app);
  const opened = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
  return { api, counter, runtimeId: opened.body.runtime.runtime_id as string };
}

describe('Idempotency-Key bounds', () => {
  it('60 execs with distinct keys and large output keep at most the total: the oldest responses are evicted first', async () => {
    const { api, counter, runtimeId } = await withLoudExec(100_000, { maxTotalBytes: 1_000_000 });
    for (let i = 0; i < 60; i += 1) await api.post(`${API}/exec`, { runtime_id: runtimeId, command: `loud ${i}` }, key(`loud-${i}`));
    const replayed: number[] = [];
    for (const i of [0, 1, 30, 50, 58, 59]) {
      const retry = await api.post(`${API}/exec`, { runtime_id: runtimeId, command: `loud ${i}` }, key(`loud-${i}`));
      expect(retry.status).toBe(200);
      if (retry.headers['idempotent-replayed'] === 'true') replayed.push(i);
    }
    // About 133 KB a response (base64 of 100 KB): 7 fit in 1 MB, and they are the newest.
    expect(replayed).toEqual([58, 59]);
    expect(counter.execs).toBe(64);
  });

  it('a response over the per-response maximum is not kept: a retry gets 410 idempotent_response_not_kept and the work is not repeated', async () => {
    const { api, counter, runtimeId } = await withLoudExec(100_000, { maxResponseBytes: 50_000 });
    const first = await api.post(`${API}/exec`, { runtime_id: runtimeId, command: 'loud' }, key('too-big'));
    expect(first.status).toBe(200);
    const retry = await api.post(`${API}/exec`, { runtime_id: runtimeId, command: 'loud' }, key('too-big'));
    expect(retry.status).toBe(410);
    expect(retry.body).toMatchObject({ code: 'idempotent_response_not_kept', details: { idempotency_key: 'key-too-big', status_code: 200 } });
    expect(counter.execs).toBe(1);
    const small = await withLoudExec(1_000, { maxResponseBytes: 50_000 });
    await small.api.post(`${API}/exec`, { runtime_id: small.runtimeId, command: 'quiet' }, key('small'));
    const smallRetry = await small.api.post(`${API}/exec`, { runtime_id: small.runtimeId, command: 'quiet' }, key('small'));
    expect(smallRetry.headers['idempotent-replayed']).toBe('true');
  });
});

describe('Idempotency-Key', () => {
  it('a retried checkout returns the stored response and creates exactly one child', async () => {
    const { server, api, runtimeId } = await withRuntime();
    const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId });
    const first = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id }, key('checkout'));
    const retry = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id }, key('checkout'));
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await server.service.list({})).runtimes).toHaveLength(2);
  });

  it('the same key with a different request is refused with 422 idempotency_key_reused', async () => {
    const { api, runtimeId } = await withRuntime();
    await api.post(`${API}/checkpoint`, { runtime_id: runtimeId, name: 'a' }, key('reused'));
    const other = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId, name: 'b' }, key('reused'));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused', details: { idempotency_key: 'key-reused' } });
  });

  it('a retry that arrives while the first request runs waits for it and never duplicates the work', async () => {
    const inner = createMemoryProvider();
    let checkouts = 0;
    const slow = delegatingProvider(inner, {
      checkout: async (request) => {
        checkouts += 1;
        await new Promise((resolve) => setTimeout(resolve, 150));
        return inner.checkout!(request);
      },
    });
    const server = createTestServer({ providers: [slow], idempotency: {} });
    const api = apiClient(server.app);
    const opened = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
    const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: opened.body.runtime.runtime_id });
    const body = { checkpoint_id: checkpoint.body.checkpoint_id };
    const [first, second] = await Promise.all([
      api.post(`${API}/checkout`, body, key('race')),
      api.post(`${API}/checkout`, body, key('race')),
    ]);
    expect(checkouts).toBe(1);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect((await server.service.list({})).runtimes).toHaveLength(2);
  });

  it('a provider failure is not kept: the retry with the same key runs again and succeeds', async () => {
    const { server, api, runtimeId } = await withRuntime();
    const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId });
    server.provider.failNext('checkout');
    const failed = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id }, key('fault'));
    expect(failed.status).toBe(502);
    const retry = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id }, key('fault'));
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a claim left in flight by a daemon process that is gone is taken over by the retry', async () => {
    const { server, api, runtimeId } = await withRuntime();
    const first = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId }, key('orphan'));
    const record = await server.store.claimIdempotencyKey({
      key: 'key-orphan',
      fingerprint: 'x',
      state: 'in_flight',
      ownerId: 'x',
      statusCode: null,
      responseBody: null,
      createdAtMs: Date.now(),
      expiresAtMs: Date.now() + 1000,
    });
    await server.store.putIdempotencyRecord({ ...record!, state: 'in_flight', ownerId: 'daemon-crashed', statusCode: null, responseBody: null });
    const retry = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId }, key('orphan'));
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.checkpoint_id).not.toBe(first.body.checkpoint_id);
  });

  it('an expired key runs the request again', async () => {
    let now = 1_800_000_000_000;
    const server = createTestServer({ idempotency: { retentionMs: 1000, clock: () => now } });
    const api = apiClient(server.app);
    const first = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' }, key('expiring'));
    now += 1000;
    const later = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' }, key('expiring'));
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.runtime.runtime_id).not.toBe(first.body.runtime.runtime_id);
  });

  it('refuses a malformed key with 400 invalid_request', async () => {
    const { api } = await withRuntime();
    const response = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' }, { 'idempotency-key': 'has space' });
    expect(response).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
  });

  it('every POST that changes state replays its first response to a retry with the same key', async () => {
    const { api, runtimeId } = await withRuntime();
    const replayed = async (path: string, body: Record<string, unknown>, name = path) => {
      const first = await api.post(`${API}/${path}`, body, key(name));
      const retry = await api.post(`${API}/${path}`, body, key(name));
      expect(first.status, path).toBe(200);
      expect(retry.headers['idempotent-replayed'], path).toBe('true');
      expect(retry.body, path).toEqual(first.body);
      return first.body;
    };
    const opened = await replayed('open', { conversation_id: 'c', sender_id: 'replay' });
    const id = opened.runtime.runtime_id as string;
    await replayed('update', { runtime_id: id, session_state: { step: 1 } });
    await replayed('write-file', { runtime_id: id, path: 'a.txt', content_base64: Buffer.from('a').toString('base64') });
    await replayed('mkdir', { runtime_id: id, path: 'dir' });
    await replayed('exec', { runtime_id: id, command: 'echo once' });
    const checkpoint = await replayed('checkpoint', { runtime_id: id });
    const child = await replayed('checkout', { checkpoint_id: checkpoint.checkpoint_id });
    await replayed('pause', { runtime_id: id });
    await replayed('resume', { runtime_id: id });
    await replayed('close', { runtime_id: child.runtime.runtime_id });
    await api.post(`${API}/write-file`, { runtime_id: id, path: 'b.txt', content_base64: Buffer.from('b').toString('base64') });
    const fresh = await api.post(`${API}/checkpoint`, { runtime_id: id });
    await replayed('checkpoint/delete-snapshot', { checkpoint_id: fresh.body.checkpoint_id });
    await replayed('close', { runtime_id: runtimeId }, 'close-again');
  });

  it('read-only POSTs accept the header and simply run again', async () => {
    const { api, runtimeId } = await withRuntime();
    await api.post(`${API}/write-file`, { runtime_id: runtimeId, path: 'a.txt', content_base64: Buffer.from('v1').toString('base64') });
    await api.post(`${API}/read-file`, { runtime_id: runtimeId, path: 'a.txt' }, key('read'));
    await api.post(`${API}/write-file`, { runtime_id: runtimeId, path: 'a.txt', content_base64: Buffer.from('v2').toString('base64') });
    const again = await api.post(`${API}/read-file`, { runtime_id: runtimeId, path: 'a.txt' }, key('read'));
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(Buffer.from(again.body.content_base64, 'base64').toString()).toBe('v2');
  });
});

describe('Idempotency-Key across nodes', () => {
  /** node-a serving, node-b registered as `nodeB`; a checkpoint with key-orphan completed, then its claim made in flight by `owner`. */
  async function claimLeftInFlightBy(owner: string, nodeB: { alive: boolean }) {
    const directory = new FakeNodeDirectory();
    directory.add('node-a');
    directory.add('node-b', nodeB);
    const store = new MemoryRuntimeStore();
    const server = createTestServer({ store, idempotency: {}, fleet: { nodeId: 'node-a', directory, homes: store } });
    const api = apiClient(server.app);
    const opened = await api.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
    const runtimeId = opened.body.runtime.runtime_id as string;
    const first = await api.post(`${API}/checkpoint`, { runtime_id: runtimeId }, key('orphan'));
    const record = (await store.claimIdempotencyKey({ ...ANY_CLAIM, key: 'key-orphan' }))!;
    await store.putIdempotencyRecord({ ...record, state: 'in_flight', ownerId: owner, statusCode: null, responseBody: null });
    const retry = () => api.post(`${API}/checkpoint`, { runtime_id: runtimeId }, key('orphan'));
    return { store, first, retry, record };
  }

  it('a claim carries the node id as its owner', async () => {
    const { record } = await claimLeftInFlightBy('node-b', { alive: true });
    expect(record.ownerId).toBe('node-a');
  });

  it('a claim left in flight by a dead node is completed by a retry on another node', async () => {
    const { first, retry } = await claimLeftInFlightBy('node-b', { alive: false });
    const response = await retry();
    expect(response.status).toBe(200);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(response.body.checkpoint_id).not.toBe(first.body.checkpoint_id);
  });

  it('a claim left in flight by an owner no node registers (a daemon before the fleet) is taken over', async () => {
    const { retry } = await claimLeftInFlightBy('daemon-crashed', { alive: true });
    expect((await retry()).status).toBe(200);
  });

  it('a claim left in flight by an earlier life of this node (restarted, same node id) is taken over', async () => {
    const { retry } = await claimLeftInFlightBy('node-a', { alive: true });
    expect((await retry()).status).toBe(200);
  });

  it('retries reaching two nodes at once take a dead node’s claim over exactly once: one runs, the other does not', async () => {
    const directory = new FakeNodeDirectory();
    directory.add('node-a');
    directory.add('node-b', { alive: false });
    directory.add('node-c');
    const store = new MemoryRuntimeStore();
    // One provider every node reaches (as E2B), so either node may run the checkout.
    const provider = delegatingProvider(createMemoryProvider(), { locality: 'fleet' });
    const nodeOf = (nodeId: string) =>
      apiClient(createTestServer({ store, providers: [provider], idempotency: {}, fleet: { nodeId, directory, homes: store } }).app);
    const [a, c] = [nodeOf('node-a'), nodeOf('node-c')];
    const opened = await a.post(`${API}/open`, { conversation_id: 'c', sender_id: 's' });
    const runtimeId = opened.body.runtime.runtime_id as string;
    const checkpointId = (await a.post(`${API}/checkpoint`, { runtime_id: runtimeId })).body.checkpoint_id as string;
    const fork = () => ({ checkpoint_id: checkpointId });
    await a.post(`${API}/checkout`, fork(), key('fork'));
    const record = (await store.claimIdempotencyKey({ ...ANY_CLAIM, key: 'key-fork' }))!;
    await store.putIdempotencyRecord({ ...record, state: 'in_flight', ownerId: 'node-b', statusCode: null, responseBody: null });
    const children = async () => (await store.listSessions({ limit: 100 })).items.filter((session) => session.runtimeId !== runtimeId).length;
    const before = await children();
    // Both retries have read the abandoned claim and asked whether node-b lives before either acts.
    let bothAskedResolve!: () => void;
    const bothAsked = { promise: new Promise<void>((resolve) => (bothAskedResolve = resolve)), resolve: () => bothAskedResolve() };
    let asking = 0;
    const nodes = directory.nodeStates.bind(directory);
    directory.nodeStates = async () => {
      asking += 1;
      if (asking === 2) bothAsked.resolve();
      await bothAsked.promise;
      return nodes();
    };
    const replies = await Promise.all([a.post(`${API}/checkout`, fork(), key('fork')), c.post(`${API}/checkout`, fork(), key('fork'))]);
    expect(await children()).toBe(before + 1);
    expect(replies.filter((reply) => reply.status === 200 && reply.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
  });

  it('a claim in flight on a live node is not taken over: the retry is 409 session_busy', async () => {
    const { retry } = await claimLeftInFlightBy('node-b', { alive: true });
    const response = await retry();
    expect(response).toMatchObject({ status: 409, body: { code: 'session_busy', details: { idempotency_key: 'key-orphan' } } });
  });
});
