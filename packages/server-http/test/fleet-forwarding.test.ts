import { MemoryRuntimeStore } from '@runtimectl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeNodeDirectory } from './fleet-directory';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };

interface Node {
  server: TestServer;
  url: string;
  /** The headers of every request the node received. */
  seen: Array<Record<string, unknown>>;
}

/**
 * Two real listening servers, node-a and node-b, on one store, each with its own memory
 * provider: a backend opened through node-b exists only on node-b.
 */
async function twoNodes(options: { forward?: boolean } = {}) {
  const store = new MemoryRuntimeStore();
  const directory = new FakeNodeDirectory();
  const start = async (nodeId: string): Promise<Node> => {
    const server = createTestServer({
      store,
      config: { auth: { bearerToken: TEST_TOKEN } },
      idempotency: {},
      fleet: { nodeId, directory, homes: store, ...options },
    });
    const seen: Array<Record<string, unknown>> = [];
    server.app.addHook('onRequest', async (request) => {
      seen.push({ ...request.headers });
    });
    const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
    return { server, url, seen };
  };
  const a = await start('node-a');
  const b = await start('node-b');
  directory.add('node-a', { url: a.url });
  directory.add('node-b', { url: b.url });
  opened.push(a, b);
  return { store, directory, a, b };
}

const opened: Node[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((node) => node.server.app.close()));
});

/** Opens a runtime through `node` and records it as home on `nodeId` (as core does for a node-local provider). */
async function runtimeHomeOn(store: MemoryRuntimeStore, node: Node, nodeId: string): Promise<string> {
  const response = await post(node, '/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' });
  const runtimeId = (response.body as any).runtime.runtime_id as string;
  const session = (await store.getSession(runtimeId))!;
  await store.commit({ sessions: [{ ...session, homeNodeId: nodeId }] });
  return runtimeId;
}

async function post(node: Node, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${node.url}${path}`, { method: 'POST', headers: { ...AUTH, ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('forwarding to a runtime\'s home node', () => {
  it('a request for a runtime home on another node is proxied there and its answer streamed back', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const written = await post(a, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'a.txt', content_base64: Buffer.from('hello').toString('base64') });
    expect(written.status).toBe(200);
    // The backend lives only in node-b's provider: the bytes are there.
    const read = await post(b, '/api/v1/runtimes/read-file', { runtime_id: runtimeId, path: 'a.txt' });
    expect(Buffer.from((read.body as any).content_base64, 'base64').toString()).toBe('hello');
    const exported = await fetch(`${a.url}/api/v1/runtimes/export`, { method: 'POST', headers: AUTH, body: JSON.stringify({ runtime_id: runtimeId, path: 'a.txt' }) });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe('hello');
  });

  it('the forwarded request carries the caller\'s Authorization, Idempotency-Key and request id, and names the forwarding node', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const headers = { 'idempotency-key': 'key-forwarded', 'x-request-id': 'req-forwarded-1' };
    const first = await post(a, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('req-forwarded-1');
    expect(b.seen.at(-1)).toMatchObject({
      authorization: AUTH.authorization,
      'idempotency-key': 'key-forwarded',
      'x-request-id': 'req-forwarded-1',
      'x-runtimectl-forwarded-by': 'node-a',
    });
    // The key was claimed on the home node, so a retry sent straight there is replayed.
    const retry = await post(b, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }, headers);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('a checkout names a checkpoint: it is forwarded to the home node of that checkpoint\'s runtime', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const checkpoint = await post(b, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    const checkout = await post(a, '/api/v1/runtimes/checkout', { checkpoint_id: (checkpoint.body as any).checkpoint_id });
    expect(checkout.status).toBe(200);
  });

  it('forwarding, Idempotency-Key takeover and /metrics read the node states, never the runtime counts of GET /nodes (a query over every runtime)', async () => {
    const { store, directory, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    directory.countingListings = 0;
    const written = await post(a, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'a.txt', content_base64: Buffer.from('x').toString('base64') }, { 'idempotency-key': 'k-1' });
    expect(written.status).toBe(200);
    expect((await fetch(`${a.url}/metrics`, { headers: AUTH })).status).toBe(200);
    expect(directory.countingListings).toBe(0);
  });

  it('a runtime home on this node, or on no node, is served here', async () => {
    const { store, a } = await twoNodes();
    const local = await runtimeHomeOn(store, a, 'node-a');
    const anywhere = await runtimeHomeOn(store, a, null as unknown as string);
    for (const runtimeId of [local, anywhere]) {
      expect((await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' })).status).toBe(200);
    }
  });

  it("a diff against a live runtime home on another node is forwarded there (the live manifest is that node's)", async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const checkpoint = await post(b, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId });
    await post(b, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'live.txt', content_base64: Buffer.from('l').toString('base64') });
    const diff = await post(a, '/api/v1/checkpoints/diff', { from_checkpoint_id: (checkpoint.body as any).checkpoint_id, to_runtime_id: runtimeId });
    expect(diff.status).toBe(200);
    expect((diff.body as any).entries.map(({ path }: { path: string }) => path)).toEqual(['live.txt']);
  });

  it('with forwarding off, answers 503 runtime_on_other_node naming the home node', async () => {
    const { store, a, b } = await twoNodes({ forward: false });
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
    expect(response).toMatchObject({
      status: 503,
      body: { code: 'runtime_on_other_node', details: { runtime_id: runtimeId, node_id: 'node-b', node_url: b.url, node_alive: true } },
    });
  });

  it('a home node that is not alive is not tried: 503 runtime_on_other_node with node_alive false', async () => {
    const { store, directory, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    directory.add('node-b', { url: b.url, alive: false });
    const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
    expect(response).toMatchObject({ status: 503, body: { code: 'runtime_on_other_node', details: { node_id: 'node-b', node_alive: false } } });
    expect(b.seen).toHaveLength(1); // the open only
  });

  it('a home node without an advertised URL, or that refuses the connection, gets 503 runtime_on_other_node', async () => {
    const { store, directory, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    directory.add('node-b', { url: null });
    expect(await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' })).toMatchObject({
      status: 503,
      body: { code: 'runtime_on_other_node', details: { node_id: 'node-b', node_url: null } },
    });
    directory.add('node-b', { url: b.url });
    await b.server.app.close();
    expect(await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' })).toMatchObject({
      status: 503,
      body: { code: 'runtime_on_other_node', details: { node_id: 'node-b', node_url: b.url } },
    });
  });

  it('a request that was already forwarded is never forwarded again (loop guard)', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' }, { 'x-runtimectl-forwarded-by': 'node-c' });
    expect(response).toMatchObject({ status: 503, body: { code: 'runtime_on_other_node', details: { node_id: 'node-b' } } });
    expect(b.seen).toHaveLength(1); // the open only
  });
});
