import { CONTRACT_ROUTES } from '@runtimectl/testkit';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { createTestServer, TEST_TOKEN, type TestServer } from './test-server';

describe('GET /openapi.json', () => {
  let server: TestServer;
  let document: any;

  beforeAll(async () => {
    server = createTestServer({ config: { auth: { bearerToken: TEST_TOKEN } } });
    const response = await apiClient(server.app, { authorization: `Bearer ${TEST_TOKEN}` }).get('/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => server.app.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents exactly the routes of the contract, and not the docs, openapi or metrics plumbing', () => {
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...CONTRACT_ROUTES].sort());
  });

  it('describes bodies from core\'s schemas: strict objects with their required fields', () => {
    const open = document.paths['/api/v1/runtimes/open'].post.requestBody.content['application/json'].schema;
    expect(open.additionalProperties).toBe(false);
    expect(open.required).toEqual(['conversation_id', 'sender_id']);
    const exec = document.paths['/api/v1/runtimes/exec'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(exec.properties)).toEqual(
      expect.arrayContaining(['stdout_base64', 'stderr_base64', 'exit_code', 'timed_out', 'truncated', 'duration_ms']),
    );
  });

  it('documents the error body on every operation and the bearer scheme, with health open', () => {
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const error = operation.responses['4XX'] ?? operation.responses['4xx'];
        expect(error, `${method} ${path}`).toBeDefined();
        expect(Object.keys(error.content['application/json'].schema.properties).sort(), `${method} ${path}`).toEqual(['code', 'details', 'error']);
      }
    }
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/v1/health'].get.security).toEqual([]);
  });

  it('documents /events as a JSON page or an SSE stream, with the Last-Event-ID header a stream resumes from', () => {
    const events = document.paths['/api/v1/events'].get;
    expect(Object.keys(events.responses['200'].content).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(events.responses['200'].content['text/event-stream'].schema.description).toMatch(/^Server-Sent Events: /);
    const header = events.parameters.find((parameter: { in: string; name: string }) => parameter.in === 'header');
    expect(header).toMatchObject({ in: 'header', name: 'last-event-id', required: false, schema: { type: 'string' } });
    expect(header.description ?? header.schema.description).toMatch(/wins over `after`/);
  });

  it('says which request bodies take exactly one of two fields', () => {
    const bodyOf = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema;
    expect(bodyOf('/api/v1/runtimes/read-file').oneOf).toEqual([{ required: ['runtime_id'] }, { required: ['checkpoint_id'] }]);
    expect(bodyOf('/api/v1/checkpoints/diff').oneOf).toEqual([{ required: ['to_checkpoint_id'] }, { required: ['to_runtime_id'] }]);
    expect(bodyOf('/api/v1/runtimes/search').oneOf).toEqual([{ required: ['glob'] }, { required: ['grep'] }]);
    expect(bodyOf('/api/v1/runtimes/read-file').description).toBe('exactly one of runtime_id and checkpoint_id');
  });

  it('documents export as application/octet-stream', () => {
    const exported = document.paths['/api/v1/runtimes/export'].post.responses['200'];
    expect(Object.keys(exported.content)).toEqual(['application/octet-stream']);
  });
});

describe('GET /docs', () => {
  let server: TestServer;
  beforeAll(() => {
    server = createTestServer();
  });
  afterAll(() => server.app.close());

  it('renders the reference page as HTML whose scripts and styles are all served locally', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset, 'no CDN').toMatch(/^(\.\/|\/docs\/)/);
      const url = asset.startsWith('./') ? `/docs/${asset.slice(2)}` : asset;
      expect((await server.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect(page.headers['content-security-policy']).not.toMatch(/https:|upgrade-insecure-requests/);
  });

  it('serves the bundle and the document the page loads', async () => {
    const bundle = await server.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
    const spec = await server.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.json().openapi).toBe('3.1.0');
  });
});
