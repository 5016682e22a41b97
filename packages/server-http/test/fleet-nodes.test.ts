import { MemoryRuntimeStore, type BackendProviderV1 } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { FakeNodeDirectory } from './fleet-directory';
import { parsePrometheusText, sampleValue } from './prometheus-text';
import { createTestServer, TEST_TOKEN } from './test-server';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };

function fleetServer(directory = new FakeNodeDirectory(), options: { readyTimeoutMs?: number } = {}) {
  const store = new MemoryRuntimeStore();
  const server = createTestServer({
    store,
    config: { auth: { bearerToken: TEST_TOKEN } },
    fleet: { nodeId: 'node-a', directory, homes: store, ...options },
  });
  return { server, directory, api: apiClient(server.app) };
}

describe('GET /api/v1/nodes', () => {
  it('lists every node of the fleet with its advertised URL, version, times, liveness and runtime count', async () => {
    const { directory, api } = fleetServer();
    directory.add('node-a', { url: 'http://10.0.0.1:7333', runtimes: 3 });
    directory.add('node-b', { alive: false });
    const response = await api.get('/api/v1/nodes', AUTH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      nodes: [
        {
          node_id: 'node-a',
          advertise_url: 'http://10.0.0.1:7333',
          version: '9.9.9-test',
          started_at_ms: 1_800_000_000_000,
          last_heartbeat_at_ms: 1_800_000_005_000,
          alive: true,
          runtimes: 3,
        },
        expect.objectContaining({ node_id: 'node-b', advertise_url: null, alive: false, runtimes: 0 }),
      ],
    });
  });

  it('needs the bearer token like every other route', async () => {
    const { api } = fleetServer();
    expect((await api.get('/api/v1/nodes')).status).toBe(401);
  });
});

describe('GET /api/v1/ready', () => {
  it('answers 200 ready with the node id while the store answers, without a token (load balancers carry none)', async () => {
    const { api } = fleetServer();
    const response = await api.get('/api/v1/ready');
    expect(response).toMatchObject({ status: 200, body: { status: 'ready', node_id: 'node-a' } });
  });

  it('answers 503 store_unavailable with Retry-After when the store refuses', async () => {
    const { directory, api } = fleetServer();
    directory.store = 'fails';
    const response = await api.get('/api/v1/ready');
    expect(response).toMatchObject({ status: 503, body: { code: 'store_unavailable' } });
    expect(response.headers['retry-after']).toBeDefined();
  });

  it('answers 503 store_unavailable when the store does not answer within the readiness deadline', async () => {
    const { directory, api } = fleetServer(new FakeNodeDirectory(), { readyTimeoutMs: 50 });
    directory.store = 'hangs';
    const response = await api.get('/api/v1/ready');
    expect(response).toMatchObject({ status: 503, body: { code: 'store_unavailable' } });
  });

  it('leaves liveness alone: /health answers ok while the store is unreachable', async () => {
    const { directory, api } = fleetServer();
    directory.store = 'fails';
    expect(await api.get('/api/v1/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});

describe('fleet metrics', () => {
  it('exports runtimectl_node_info{node_id,version} and runtimectl_fleet_nodes by state', async () => {
    const { directory, api } = fleetServer();
    directory.add('node-a');
    directory.add('node-b');
    directory.add('node-c', { alive: false });
    const samples = parsePrometheusText((await api.get('/metrics', AUTH)).body);
    expect(sampleValue(samples, 'runtimectl_node_info', { node_id: 'node-a', version: '9.9.9-test' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_fleet_nodes', { state: 'alive' })).toBe(2);
    expect(sampleValue(samples, 'runtimectl_fleet_nodes', { state: 'dead' })).toBe(1);
  });
});

describe('keep-alive metrics', () => {
  it('exports runtimectl_keep_alive_backends: how many backends this node keeps alive', async () => {
    // A memory provider with a keep-alive (as E2B has): the holder of a one-node fleet keeps every live runtime's backend.
    const memory = createMemoryProvider();
    const keepAlive = new Proxy(memory, {
      get(target, key) {
        if (key === 'keepAlive') return () => {};
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as BackendProviderV1;
    const server = createTestServer({ providers: [keepAlive], config: { auth: { bearerToken: TEST_TOKEN } } });
    const api = apiClient(server.app);
    for (const id of ['a', 'b', 'c']) await api.post('/api/v1/runtimes/open', { runtime_id: id, conversation_id: 'c', sender_id: 's' }, AUTH);
    await api.post('/api/v1/runtimes/close', { runtime_id: 'c' }, AUTH);
    await server.service.keepAlive();
    const samples = parsePrometheusText((await api.get('/metrics', AUTH)).body);
    expect(sampleValue(samples, 'runtimectl_keep_alive_backends', {})).toBe(2);
  });
});

