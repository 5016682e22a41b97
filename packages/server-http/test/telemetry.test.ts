import type { ReconcileReport } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServerTelemetry } from '../src/index';
import { apiClient } from './api-client';
import { parsePrometheusText, sampleValue } from './prometheus-text';
import { createTestServer, type TestServer } from './test-server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `target` with every method (of it and of the backends it hands out) taking `ms` longer. */
function slowedDown<T extends object>(target: T, ms: number): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await sleep(ms);
        const result = await value.apply(object, args);
        // A backend (create, attach, checkout) is slowed down too.
        return typeof result === 'object' && result !== null && 'exec' in result ? slowedDown(result, ms) : result;
      };
    },
  });
}

/** `server-timing: provider;dur=X, total;dur=Y` → {provider, total}. */
function serverTiming(header: unknown): { provider: number; total: number } {
  const match = /^provider;dur=([\d.]+), total;dur=([\d.]+)$/.exec(String(header));
  if (!match) throw new Error(`unexpected server-timing: ${String(header)}`);
  return { provider: Number(match[1]), total: Number(match[2]) };
}

describe('server-timing', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeEach(async () => {
    // `slow` spends 120 ms inside the provider; everything else is instant.
    const provider = createMemoryProvider({
      execHandler: async (request) => {
        if (request.command !== 'slow') return undefined;
        await sleep(120);
        return { stdout: 'done' };
      },
    });
    server = createTestServer({ providers: [provider] });
    api = apiClient(server.app);
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
  });
  afterEach(() => server.app.close());

  it('reports the provider time of the request and the total, total ≥ provider', async () => {
    const response = await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'slow' });
    const timing = serverTiming(response.headers['server-timing']);
    expect(timing.provider).toBeGreaterThanOrEqual(115);
    expect(timing.total).toBeGreaterThanOrEqual(timing.provider);
  });

  it('keeps each request\'s provider time to itself when requests overlap', async () => {
    const [slow, fast] = await Promise.all([
      api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'slow' }),
      sleep(10).then(() => api.post('/api/v1/runtimes/stat', { runtime_id: 'rt-a', path: 'x' })),
    ]);
    expect(serverTiming(slow.headers['server-timing']).provider).toBeGreaterThanOrEqual(115);
    expect(serverTiming(fast.headers['server-timing']).provider).toBeLessThan(60);
  });

  it('counts the provider calls of every runtime operation that makes one (each handler passes its timing)', async () => {
    const slowServer = createTestServer({ providers: [slowedDown(createMemoryProvider(), 20)] });
    try {
      const slowApi = apiClient(slowServer.app);
      const providerMsOf = async (path: string, body: Record<string, unknown>) => {
        const response = await slowApi.post(path, body);
        expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
        return { path, providerMs: serverTiming(response.headers['server-timing']).provider, body: response.body };
      };
      const id = { runtime_id: 'rt-slow' };
      const timed = [
        await providerMsOf('/api/v1/runtimes/open', { ...id, conversation_id: 'c', sender_id: 's' }),
        await providerMsOf('/api/v1/runtimes/write-file', { ...id, path: 'a.txt', content_base64: 'YQ==' }),
        await providerMsOf('/api/v1/runtimes/read-file', { ...id, path: 'a.txt' }),
        await providerMsOf('/api/v1/runtimes/stat', { ...id, path: 'a.txt' }),
        await providerMsOf('/api/v1/runtimes/mkdir', { ...id, path: 'dir' }),
        await providerMsOf('/api/v1/runtimes/search', { ...id, glob: '**/*.txt' }),
        await providerMsOf('/api/v1/runtimes/export', { ...id, path: 'a.txt' }),
        await providerMsOf('/api/v1/runtimes/exec', { ...id, command: 'echo hi' }),
      ];
      const first = await providerMsOf('/api/v1/runtimes/checkpoint', id);
      await slowApi.post('/api/v1/runtimes/write-file', { ...id, path: 'b.txt', content_base64: 'Yg==' });
      const second = await providerMsOf('/api/v1/runtimes/checkpoint', id);
      timed.push(
        first,
        second,
        await providerMsOf('/api/v1/runtimes/checkout', { checkpoint_id: second.body.checkpoint_id }),
        await providerMsOf('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: first.body.checkpoint_id }),
        await providerMsOf('/api/v1/runtimes/pause', id),
        await providerMsOf('/api/v1/runtimes/resume', id),
        await providerMsOf('/api/v1/runtimes/close', id),
      );
      const untimed = timed.filter(({ providerMs }) => providerMs < 18).map(({ path, providerMs }) => `${path}: ${providerMs} ms`);
      expect(untimed).toStrictEqual([]);
    } finally {
      await slowServer.app.close();
    }
  });

  it('is on runtime operations, also when they fail, and not on health or providers', async () => {
    const failed = await api.get('/api/v1/runtimes/ghost');
    expect(failed.status).toBe(404);
    expect(serverTiming(failed.headers['server-timing']).provider).toBe(0);
    const checkpoints = await api.get('/api/v1/runtimes/rt-a/checkpoints');
    expect(checkpoints.headers['server-timing']).toMatch(/^provider;dur=/);
    expect((await api.get('/api/v1/health')).headers['server-timing']).toBeUndefined();
    expect((await api.get('/api/v1/providers')).headers['server-timing']).toBeUndefined();
  });
});

describe('GET /metrics', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;

  beforeEach(() => {
    server = createTestServer();
    api = apiClient(server.app);
  });
  afterEach(() => server.app.close());

  const scrape = async () => {
    const response = await api.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(response.body as string);
  };

  it('counts requests and observes their latency per route pattern and status, never per raw URL', async () => {
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-secret-id', conversation_id: 'c', sender_id: 's' });
    await api.get('/api/v1/runtimes/rt-secret-id');
    await api.get('/api/v1/runtimes/rt-secret-id');
    await api.get('/api/v1/runtimes/ghost');
    await api.get('/no/such/route');
    const samples = await scrape();
    const route = '/api/v1/runtimes/:runtime_id';
    expect(sampleValue(samples, 'runtimectl_http_requests_total', { method: 'GET', route, status_code: '200' })).toBe(2);
    expect(sampleValue(samples, 'runtimectl_http_requests_total', { method: 'GET', route, status_code: '404' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_http_request_duration_seconds_count', { method: 'GET', route, status_code: '200' })).toBe(2);
    expect(sampleValue(samples, 'runtimectl_http_request_duration_seconds_bucket', { method: 'GET', route, status_code: '200', le: '+Inf' })).toBe(2);
    const labelValues = samples.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.filter((value) => value.includes('rt-secret-id') || value.includes('ghost'))).toEqual([]);
  });

  it('counts operations by operation, provider and outcome, and observes provider calls', async () => {
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    server.provider.failNext('exec');
    await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    const samples = await scrape();
    expect(sampleValue(samples, 'runtimectl_operations_total', { operation: 'exec', provider: 'memory', outcome: 'ok' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_operations_total', { operation: 'exec', provider: 'memory', outcome: 'provider_error' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_operations_total', { operation: 'open', provider: 'memory', outcome: 'ok' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_provider_call_duration_seconds_count', { provider: 'memory', call: 'exec', outcome: 'ok' })).toBe(1);
    expect(
      sampleValue(samples, 'runtimectl_provider_call_duration_seconds_count', { provider: 'memory', call: 'exec', outcome: 'provider_error' }),
    ).toBe(1);
    expect(sampleValue(samples, 'runtimectl_provider_call_duration_seconds_count', { provider: 'memory', call: 'create', outcome: 'ok' })).toBe(1);
  });

  it('observes every operation\'s duration by operation and outcome, the maintenance node\'s retention passes included', async () => {
    await api.post('/api/v1/runtimes/open', { runtime_id: 'rt-a', conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/exec', { runtime_id: 'rt-a', command: 'true' });
    await server.service.applyRetention();
    await server.service.applyRetention();
    const samples = await scrape();
    const observed = (operation: string) => sampleValue(samples, 'runtimectl_operation_duration_seconds_count', { operation, outcome: 'ok' });
    expect([observed('open'), observed('exec'), observed('retention')]).toEqual([1, 1, 2]);
    expect(sampleValue(samples, 'runtimectl_operation_duration_seconds_bucket', { operation: 'retention', outcome: 'ok', le: '+Inf' })).toBe(2);
  });

  it('reports live runtimes by status, read from the service at scrape time', async () => {
    for (const id of ['a', 'b', 'c']) await api.post('/api/v1/runtimes/open', { runtime_id: id, conversation_id: 'c', sender_id: 's' });
    await api.post('/api/v1/runtimes/pause', { runtime_id: 'b' });
    await api.post('/api/v1/runtimes/close', { runtime_id: 'c' });
    const samples = await scrape();
    const runtimes = (status: string) => sampleValue(samples, 'runtimectl_runtimes', { status });
    expect([runtimes('idle'), runtimes('running'), runtimes('paused'), runtimes('failed'), runtimes('closed')]).toEqual([1, 0, 1, 0, 1]);
  });

  it('counts what start-up reconciliation did, by action', async () => {
    server.telemetry.recordReconciliation({
      resolvedIntents: 3,
      releasedBackends: ['bkd_1', 'bkd_2'],
      deletedSnapshots: ['snap_1'],
      failedRuntimes: [],
      completedPauses: ['rt-paused'],
      missingSnapshots: ['snap_gone_1', 'snap_gone_2'],
      errors: ['e2b: unreachable'],
    } as ReconcileReport);
    const samples = await scrape();
    const count = (action: string) => sampleValue(samples, 'runtimectl_reconciliation_total', { action });
    expect(
      [
        count('resolved_intent'),
        count('released_backend'),
        count('deleted_snapshot'),
        count('failed_runtime'),
        count('completed_pause'),
        count('missing_snapshot'),
        count('error'),
      ],
    ).toEqual([3, 2, 1, 0, 1, 2, 1]);
  });

  it('reports workspace bytes used (summed over its sources at scrape time) and quota refusals by operation', async () => {
    let bytesUsed = 1000;
    server.telemetry.watchWorkspaceUsage(() => ({ bytesUsed }));
    server.telemetry.watchWorkspaceUsage(() => ({ bytesUsed: 24 }));
    server.telemetry.recordWorkspaceQuotaRefusal('write');
    server.telemetry.recordWorkspaceQuotaRefusal('write');
    server.telemetry.recordWorkspaceQuotaRefusal('exec');
    bytesUsed = 2000;
    const samples = await scrape();
    expect(sampleValue(samples, 'runtimectl_workspace_bytes_used')).toBe(2024);
    expect(sampleValue(samples, 'runtimectl_workspace_quota_refusals_total', { operation: 'write' })).toBe(2);
    expect(sampleValue(samples, 'runtimectl_workspace_quota_refusals_total', { operation: 'exec' })).toBe(1);
  });

  it('counts webhook delivery attempts by webhook and outcome, and reports each webhook\'s pending events at scrape time', async () => {
    server.telemetry.recordWebhookAttempt('ops', 'failed_attempt');
    server.telemetry.recordWebhookAttempt('ops', 'delivered');
    server.telemetry.recordWebhookAttempt('audit', 'gave_up');
    let pending: Record<string, number> = { ops: 0, audit: 7 };
    server.telemetry.watchWebhooks(async () => pending);
    let samples = await scrape();
    const attempts = (webhook: string, outcome: string) => sampleValue(samples, 'runtimectl_webhook_deliveries_total', { webhook, outcome });
    expect([attempts('ops', 'delivered'), attempts('ops', 'failed_attempt'), attempts('audit', 'gave_up')]).toEqual([1, 1, 1]);
    expect(sampleValue(samples, 'runtimectl_webhook_pending_events', { webhook: 'audit' })).toBe(7);
    pending = { ops: 2, audit: 0 };
    samples = await scrape();
    expect([sampleValue(samples, 'runtimectl_webhook_pending_events', { webhook: 'ops' }), sampleValue(samples, 'runtimectl_webhook_pending_events', { webhook: 'audit' })]).toEqual([2, 0]);
  });

  it('uses its own registry: two telemetries never share metrics', async () => {
    const first = createServerTelemetry({ processMetrics: false });
    const second = createServerTelemetry({ processMetrics: false });
    first.recordRequest('GET', '/x', 200, 1);
    expect(await first.metrics()).toContain('route="/x"');
    expect(await second.metrics()).not.toContain('route="/x"');
  });

  it('exports process metrics by default under the same prefix', async () => {
    const telemetry = createServerTelemetry();
    expect(await telemetry.metrics()).toMatch(/^runtimectl_process_cpu_seconds_total /m);
  });
});
