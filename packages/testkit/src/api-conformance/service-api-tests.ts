import { describe, expect, test } from 'vitest';
import { EventListResultSchema, HealthResultSchema, ProviderListResultSchema } from '@runtimectl/core';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

/** Every route of the contract as `method path` in OpenAPI form. */
export const CONTRACT_ROUTES = [
  'get /api/v1/health',
  'get /api/v1/providers',
  'post /api/v1/runtimes/open',
  'get /api/v1/runtimes',
  'get /api/v1/runtimes/{runtime_id}',
  'post /api/v1/runtimes/update',
  'post /api/v1/runtimes/exec',
  'post /api/v1/runtimes/read-file',
  'post /api/v1/runtimes/write-file',
  'post /api/v1/runtimes/stat',
  'post /api/v1/runtimes/mkdir',
  'post /api/v1/runtimes/search',
  'post /api/v1/runtimes/export',
  'post /api/v1/runtimes/checkpoint',
  'post /api/v1/runtimes/checkpoint/delete-snapshot',
  'post /api/v1/runtimes/checkpoint/pin',
  'get /api/v1/retention/preview',
  'get /api/v1/runtimes/{runtime_id}/checkpoints',
  'get /api/v1/checkpoints/{checkpoint_id}',
  'get /api/v1/checkpoints/{checkpoint_id}/tree',
  'post /api/v1/checkpoints/diff',
  'post /api/v1/runtimes/checkout',
  'post /api/v1/runtimes/fork',
  'post /api/v1/runtimes/pause',
  'post /api/v1/runtimes/resume',
  'post /api/v1/runtimes/close',
  'get /api/v1/events',
  'get /api/v1/webhooks',
  'get /api/v1/webhooks/{webhook_id}/deliveries',
  'get /api/v1/keys',
  'post /api/v1/keys',
  'delete /api/v1/keys/{name}',
] as const;

/** Health, providers, the documents, metrics, request ids and the shape of request errors. */
export function serviceApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;

  describe('service routes', () => {
    test('GET /api/v1/health answers {status:"ok", version} without a token', async () => {
      const health = await client.get('/api/v1/health', { authorize: false });
      expectOk(health);
      expect(HealthResultSchema.parse(health.body)).toEqual(health.body);
      expect(health.headers.get('x-request-id')).toBeTruthy();
    }, testMs);

    test('GET /api/v1/providers lists providers with what each operation does on them', async () => {
      const providers = await client.get('/api/v1/providers');
      expectOk(providers);
      const listed = ProviderListResultSchema.parse(providers.body).providers;
      expect(listed.length).toBeGreaterThan(0);
      if (options.snapshotProvider !== undefined) {
        expect(listed.find((entry) => entry.provider === options.snapshotProvider)?.capabilities, options.snapshotProvider).toEqual({
          checkpoint: true,
          snapshot: true,
          checkout: true,
          delete_snapshot: true,
          pause: true,
          snapshot_kind: expect.stringMatching(/^(filesystem|memory)$/),
          restore_verification: expect.stringMatching(/^(default|opt_in)$/),
        });
      }
      if (options.unsupportedProvider !== undefined) {
        expect(listed.find((entry) => entry.provider === options.unsupportedProvider)?.capabilities, options.unsupportedProvider).toMatchObject({
          checkpoint: true,
          snapshot: false,
          checkout: false,
          pause: false,
          snapshot_kind: null,
          restore_verification: null,
        });
      }
    }, testMs);

    test('GET /api/v1/events lists a runtime’s opening and closing, in order, filtered by runtime', async () => {
      const opened = await context.open('events');
      const runtimeId = (opened.body as { runtime: { runtime_id: string } }).runtime.runtime_id;
      expectOk(await client.post('/api/v1/runtimes/close', { runtime_id: runtimeId }));
      const page = await client.get(`/api/v1/events?runtime_id=${runtimeId}&types=runtime.opened,runtime.closed`);
      expectOk(page);
      const result = EventListResultSchema.parse(page.body);
      expect(result.events.map((event) => [event.type, event.runtime_id])).toEqual([
        ['runtime.opened', runtimeId],
        ['runtime.closed', runtimeId],
      ]);
      expect(result.events[0]!.event_id).toBeLessThan(result.events[1]!.event_id);
      expect(result.last_event_id).toBeGreaterThanOrEqual(result.events[1]!.event_id);
    }, testMs);

    test('GET /openapi.json is an OpenAPI 3.1 document naming every route of the contract', async () => {
      const document = await client.get('/openapi.json');
      expectOk(document);
      expect(String(document.body.openapi)).toMatch(/^3\.1\./);
      const documented = Object.entries(document.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toLowerCase()} ${path}`),
      );
      expect(documented).toEqual(expect.arrayContaining([...CONTRACT_ROUTES]));
    }, testMs);

    test('GET /docs renders an HTML reference page', async () => {
      const page = await client.get('/docs');
      expectOk(page);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(String(page.body)).toMatch(/<html/i);
    }, testMs);

    test('GET /metrics answers Prometheus text with request counts', async () => {
      await client.get('/api/v1/providers');
      const metrics = await client.get('/metrics');
      expectOk(metrics);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(String(metrics.body)).toMatch(/^# TYPE \S*http_requests_total counter$/m);
    }, testMs);

    test('every response carries x-request-id, and a sane caller id is echoed', async () => {
      const generated = await client.get('/api/v1/providers');
      expect(generated.headers.get('x-request-id')).toMatch(/^\S{8,}$/);
      const echoed = await client.get('/api/v1/providers', { headers: { 'x-request-id': 'conformance-trace-1' } });
      expect(echoed.headers.get('x-request-id')).toBe('conformance-trace-1');
    }, testMs);

    test('an unknown route is 404 route_not_found; a known path with another method 405 method_not_allowed with Allow', async () => {
      expectApiError(await client.get('/api/v1/no-such-route'), 404, 'route_not_found');
      const deleted = await client.request('DELETE', '/api/v1/runtimes/anything');
      expectApiError(deleted, 405, 'method_not_allowed');
      expect(deleted.headers.get('allow')).toBe('GET, HEAD');
      const action = await client.get('/api/v1/runtimes/checkpoint');
      expectApiError(action, 405, 'method_not_allowed');
      expect(action.headers.get('allow')).toBe('POST');
    }, testMs);

    test('an unknown field is 400 invalid_request carrying the zod issues in details.issues', async () => {
      const response = await client.post('/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's', conversaton: 'typo' });
      const details = expectApiError(response, 400, 'invalid_request');
      expect(details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'unrecognized_keys' })]));
    }, testMs);

    test('malformed JSON and a body that is not JSON are 400 invalid_request', async () => {
      expectApiError(await client.post('/api/v1/runtimes/open', '{"conversation_id": '), 400, 'invalid_request');
      const text = await client.request('POST', '/api/v1/runtimes/open', {
        body: 'conversation_id=c',
        headers: { 'content-type': 'text/plain' },
      });
      expectApiError(text, 400, 'invalid_request');
    }, testMs);

    test('valid JSON with a __proto__ or constructor.prototype key is 400 invalid_request naming the key and why', async () => {
      const nested = await client.post('/api/v1/runtimes/open', '{"conversation_id":"c","sender_id":"s","metadata":{"a":[{"__proto__":{"admin":true}}]}}');
      const details = expectApiError(nested, 400, 'invalid_request');
      expect(nested.body.error).toContain('"__proto__"');
      expect(nested.body.error).toContain('prototype');
      expect(nested.body.error).not.toMatch(/not valid JSON/i);
      expect(details).toEqual({ key: '__proto__', path: ['metadata', 'a', 0, '__proto__'] });
      const constructor = await client.post('/api/v1/runtimes/open', '{"conversation_id":"c","sender_id":"s","constructor":{"prototype":{}}}');
      expect(expectApiError(constructor, 400, 'invalid_request')).toEqual({ key: 'constructor.prototype', path: ['constructor', 'prototype'] });
    }, testMs);
  });
}
