import { createServer, type Server } from 'node:http';
import { MemoryRuntimeStore } from '@runtimectl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenSha256 } from '@runtimectl/core';
import type { ApiKeyConfig } from '../src/index';
import { signedPeerRequest } from '../src/fleet/forward-request';
import { FakeNodeDirectory } from './fleet-directory';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' };
const FLEET_SECRET = 'fleet-secret-of-the-test-0123456789abcdef';

interface Node {
  server: TestServer;
  url: string;
  /** The method, URL and headers of every request the node received. */
  seen: Array<Record<string, unknown>>;
}

/**
 * Two real listening servers, node-a and node-b, on one store, each with its own memory
 * provider: a backend opened through node-b exists only on node-b. Both share one fleet secret
 * unless `secrets` gives each its own (undefined: none).
 */
async function twoNodes(options: { forward?: boolean; secrets?: [string | undefined, string | undefined]; keys?: ApiKeyConfig[] } = {}) {
  const store = new MemoryRuntimeStore();
  const directory = new FakeNodeDirectory();
  const [secretA, secretB] = options.secrets ?? [FLEET_SECRET, FLEET_SECRET];
  const start = async (nodeId: string, secret: string | undefined): Promise<Node> => {
    const server = createTestServer({
      store,
      config: { auth: { bearerToken: TEST_TOKEN, ...(options.keys ? { keys: options.keys } : {}) } },
      idempotency: {},
      fleet: { nodeId, directory, homes: store, ...(options.forward === undefined ? {} : { forward: options.forward }), ...(secret ? { secret } : {}) },
    });
    const seen: Array<Record<string, unknown>> = [];
    server.app.addHook('onRequest', async (request) => {
      seen.push({ method: request.method, url: request.url, ...request.headers });
    });
    const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
    return { server, url, seen };
  };
  const a = await start('node-a', secretA);
  const b = await start('node-b', secretB);
  directory.add('node-a', { url: a.url });
  directory.add('node-b', { url: b.url });
  opened.push(a, b);
  return { store, directory, a, b };
}

const opened: Node[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((node) => node.server.app.close()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Received {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * A plain HTTP server standing at a node's address (a process that took the port of a stopped
 * node): records what it receives and answers `respond`'s status and body (default 200 `{}`).
 */
async function impostor(respond: (request: Received) => Promise<{ status: number; headers?: Record<string, string>; body: string }> = async () => ({ status: 200, body: '{}' })) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      const got = { method: request.method!, url: request.url!, headers: { ...request.headers }, body };
      received.push(got);
      const answer = await respond(got);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

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

  it('a key scoped to one runtime is checked by the node it calls before anything is forwarded: its runtime is served from its home node, another is 404 and never leaves', async () => {
    const token = 'fleet-agent-token-0123456789';
    const agent = { authorization: `Bearer ${token}` };
    const { store, a, b } = await twoNodes({ keys: [{ name: 'agent', tokenSha256: tokenSha256(token), scopes: ['exec'], runtimes: { ids: ['rt-agent'] } }] });
    await post(b, '/api/v1/runtimes/open', { runtime_id: 'rt-agent', conversation_id: 'c', sender_id: 's' });
    await store.commit({ sessions: [{ ...(await store.getSession('rt-agent'))!, homeNodeId: 'node-b' }] });
    const other = await runtimeHomeOn(store, b, 'node-b');
    const written = await post(a, '/api/v1/runtimes/write-file', { runtime_id: 'rt-agent', path: 'a.txt', content_base64: 'aGk=' }, agent);
    expect(written.status).toBe(200);
    const before = b.seen.length;
    const refused = await post(a, '/api/v1/runtimes/write-file', { runtime_id: other, path: 'a.txt', content_base64: 'aGk=' }, agent);
    expect(refused).toMatchObject({ status: 404, body: { code: 'runtime_not_found' } });
    expect(b.seen.length).toBe(before);
  });

  it('the forwarded request carries the Idempotency-Key, the request id and the forwarding node\'s signature, never the caller\'s Authorization', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const headers = { 'idempotency-key': 'key-forwarded', 'x-request-id': 'req-forwarded-1' };
    const seenBefore = b.seen.length;
    const first = await post(a, '/api/v1/runtimes/checkpoint', { runtime_id: runtimeId }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('req-forwarded-1');
    expect(first.headers.get('x-runtimectl-fleet-signature')).toBeNull();
    const [hello, forwarded] = b.seen.slice(seenBefore);
    // First node-b proves itself on a request that carries nothing of the caller's.
    expect(hello).toMatchObject({ method: 'GET', url: '/api/v1/fleet/hello', 'x-runtimectl-forwarded-by': 'node-a' });
    expect(hello).not.toHaveProperty('idempotency-key');
    expect(forwarded).toMatchObject({
      url: '/api/v1/runtimes/checkpoint',
      'idempotency-key': 'key-forwarded',
      'x-request-id': 'req-forwarded-1',
      'x-runtimectl-forwarded-by': 'node-a',
      'x-runtimectl-fleet-signature': expect.stringMatching(/^t=\d+,n=[0-9a-f]{32},b=[0-9a-f]{64},v1=[0-9a-f]{64}$/),
    });
    for (const request of [hello, forwarded]) expect(request).not.toHaveProperty('authorization');
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

  it('a home node without an advertised URL gets 503 runtime_on_other_node; one that refuses the connection 503 node_unreachable', async () => {
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
      body: { code: 'node_unreachable', details: { runtime_id: runtimeId, node_id: 'node-b', node_url: b.url } },
    });
  });

  it('a signed request forwarded to a node that is not the runtime\'s home is never forwarded again (loop guard)', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const body = JSON.stringify({ runtime_id: runtimeId, command: 'true' });
    const signed = signedPeerRequest({ nodeId: 'node-c', secret: FLEET_SECRET }, { baseUrl: a.url, nodeId: 'node-a', timeoutMs: 1000 }, {
      method: 'POST',
      url: '/api/v1/runtimes/exec',
      body,
      idempotencyKey: undefined,
    });
    const response = await fetch(signed.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-runtimectl-forwarded-by': 'node-c', 'x-runtimectl-fleet-signature': signed.signature },
      body,
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'runtime_on_other_node', details: { node_id: 'node-b' } });
    expect(b.seen).toHaveLength(1); // the open only
  });

  it('a caller claiming to be a fleet node without the fleet\'s signature is refused 401, token or not, and nothing is forwarded', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const claims: Array<Record<string, string>> = [{ 'x-runtimectl-forwarded-by': 'node-c' }, { 'x-runtimectl-forwarded-by': 'node-c', 'x-runtimectl-fleet-signature': `t=${Date.now()},n=${'0'.repeat(32)},b=${'0'.repeat(64)},v1=${'0'.repeat(64)}` }];
    for (const claim of claims) {
      const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' }, claim);
      expect(response).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      expect(response.body.error).toMatch(/^fleet peer request refused: /);
    }
    expect(b.seen).toHaveLength(1); // the open only
  });
});

describe('fleet peers authenticate each other before anything is forwarded', () => {
  it('an impostor at the home node\'s address gets only the handshake — no token, no body — and the caller 503 node_unreachable, not its answer', async () => {
    const { store, directory, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const squatter = await impostor();
    directory.add('node-b', { url: squatter.url });
    const response = await post(a, '/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'x.txt', content_base64: Buffer.from('private-bytes').toString('base64') });
    expect(response).toMatchObject({ status: 503, body: { code: 'node_unreachable', details: { runtime_id: runtimeId, node_id: 'node-b', node_url: squatter.url } } });
    expect(response.body.error).toMatch(/did not prove it is node node-b/);
    expect(squatter.received.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /api/v1/fleet/hello']);
    const everything = JSON.stringify(squatter.received);
    expect(everything).not.toContain(TEST_TOKEN);
    expect(everything).not.toContain(runtimeId);
    expect(everything).not.toContain(Buffer.from('private-bytes').toString('base64'));
  });

  it('an answer the home node did not sign for this very request is dropped unread: a relay that passes the handshake to the real node cannot answer for it', async () => {
    const { store, directory, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    // Relays the handshake to node-b (whose signed answer it replays), answers the rest itself.
    const relay = await impostor(async (request) => {
      if (request.method !== 'GET') return { status: 200, body: '{"stdout_base64":"","stderr_base64":"","exit_code":0}' };
      const real = await fetch(`${b.url}${request.url}`, { headers: request.headers as Record<string, string> });
      return { status: real.status, headers: { 'x-runtimectl-fleet-signature': real.headers.get('x-runtimectl-fleet-signature') ?? '' }, body: await real.text() };
    });
    directory.add('node-b', { url: relay.url });
    const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
    expect(response).toMatchObject({ status: 503, body: { code: 'node_unreachable' } });
    expect(relay.received.map(({ method }) => method)).toEqual(['GET', 'POST']);
    expect(relay.received[1]!.headers).not.toHaveProperty('authorization');
  });

  it('a node with another fleet secret is neither believed nor believes: 503 node_unreachable, and the home node refused the handshake', async () => {
    const { store, a, b } = await twoNodes({ secrets: [FLEET_SECRET, 'another-fleet-secret-0123456789abcdef'] });
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const response = await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' });
    expect(response).toMatchObject({ status: 503, body: { code: 'node_unreachable' } });
    expect(b.server.logs).toContainEqual(expect.objectContaining({ msg: 'refused a request claiming to come from a fleet peer', reason: expect.stringMatching(/signature does not match/) }));
  });

  it('a node without a fleet secret forwards nothing (503 runtime_on_other_node) and accepts no forwarded request', async () => {
    const { store, a, b } = await twoNodes({ secrets: [undefined, FLEET_SECRET] });
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    expect(await post(a, '/api/v1/runtimes/exec', { runtime_id: runtimeId, command: 'true' })).toMatchObject({ status: 503, body: { code: 'runtime_on_other_node' } });
    expect(b.seen).toHaveLength(1); // the open only
    const local = await runtimeHomeOn(store, a, 'node-a');
    expect(await post(b, '/api/v1/runtimes/exec', { runtime_id: local, command: 'true' })).toMatchObject({ status: 503, body: { code: 'node_unreachable' } });
  });

  it('a signed request is refused 401 when replayed, signed for another node, too old, or carrying another body than the one signed', async () => {
    const { store, a, b } = await twoNodes();
    const runtimeId = await runtimeHomeOn(store, b, 'node-b');
    const self = { nodeId: 'node-a', secret: FLEET_SECRET };
    const body = JSON.stringify({ runtime_id: runtimeId, command: 'true' });
    const send = (signature: string, sentBody = body) =>
      fetch(`${b.url}/api/v1/runtimes/exec`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-runtimectl-forwarded-by': 'node-a', 'x-runtimectl-fleet-signature': signature },
        body: sentBody,
      });
    const sign = (to: string) => signedPeerRequest(self, { baseUrl: b.url, nodeId: to, timeoutMs: 1000 }, { method: 'POST', url: '/api/v1/runtimes/exec', body, idempotencyKey: undefined });
    const good = sign('node-b');
    expect((await send(good.signature)).status).toBe(200);
    expect((await send(good.signature)).status).toBe(401);
    expect((await send(sign('node-c').signature)).status).toBe(401);
    const swapped = sign('node-b');
    expect((await send(swapped.signature, JSON.stringify({ runtime_id: runtimeId, command: 'rm -rf /' }))).status).toBe(401);
    const old = sign('node-b').signature.replace(/^t=\d+/, `t=${Date.now() - 61_000}`);
    expect((await send(old)).status).toBe(401);
  });
});
