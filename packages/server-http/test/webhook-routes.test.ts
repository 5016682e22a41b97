import { WebhookNotFoundError, type WebhookDeliveryListQuery, type WebhookDirectory } from '@runtimectl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { createTestServer, type TestServer } from './test-server';

const view = {
  webhook_id: 'ops',
  url: 'https://hooks.example.com/in',
  event_types: null,
  runtime_id: null,
  key: null,
  after_event_id: 7,
  last_success_at_ms: 1_800_000_000_000,
  last_failure_at_ms: null,
  failing: false,
};
const delivery = {
  delivery_id: 12,
  webhook_id: 'ops',
  event_id: 7,
  attempt: 1,
  outcome: 'delivered' as const,
  status_code: 200,
  error_code: null,
  response_excerpt: 'ok',
  duration_ms: 4,
  at_ms: 1_800_000_000_000,
};

/** A directory with one webhook, `ops`, that records the queries it was asked. */
function directory(queries: WebhookDeliveryListQuery[]): WebhookDirectory {
  return {
    listWebhooks: async () => ({ webhooks: [view] }),
    listWebhookDeliveries: async (webhookId, query) => {
      if (webhookId !== 'ops') throw new WebhookNotFoundError(webhookId);
      queries.push(query);
      return { deliveries: [delivery], next_cursor: '12' };
    },
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

describe('webhook routes', () => {
  it('GET /webhooks lists the configured webhooks and where each stands', async () => {
    server = createTestServer({ webhooks: directory([]) });
    const response = await apiClient(server.app).get('/api/v1/webhooks');
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({ webhooks: [view] });
  });

  it('GET /webhooks/{id}/deliveries pages a webhook’s delivery log (limit ≤ 500, cursor passed on)', async () => {
    const queries: WebhookDeliveryListQuery[] = [];
    server = createTestServer({ webhooks: directory(queries) });
    const api = apiClient(server.app);
    const page = await api.get('/api/v1/webhooks/ops/deliveries?limit=500&cursor=13');
    expect(page.status).toBe(200);
    expect(page.body).toStrictEqual({ deliveries: [delivery], next_cursor: '12' });
    expect(queries).toStrictEqual([{ limit: 500, cursor: '13' }]);
    const tooMany = await api.get('/api/v1/webhooks/ops/deliveries?limit=501');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('invalid_request');
    expect((await api.get('/api/v1/webhooks/ops/deliveries?cursor=abc')).status).toBe(400);
    expect((await api.get('/api/v1/webhooks/ops/deliveries?after=1')).status).toBe(400);
  });

  it('an unknown webhook id is 404 webhook_not_found; a malformed one 400', async () => {
    server = createTestServer({ webhooks: directory([]) });
    const api = apiClient(server.app);
    const unknown = await api.get('/api/v1/webhooks/nope/deliveries');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'webhook_not_found', details: { webhook_id: 'nope' } });
    expect((await api.get(`/api/v1/webhooks/${'x'.repeat(65)}/deliveries`)).status).toBe(400);
  });

  it('a server without webhooks answers an empty list, and webhook_not_found for any id', async () => {
    server = createTestServer();
    const api = apiClient(server.app);
    expect((await api.get('/api/v1/webhooks')).body).toStrictEqual({ webhooks: [] });
    expect((await api.get('/api/v1/webhooks/ops/deliveries')).body.code).toBe('webhook_not_found');
  });
});
