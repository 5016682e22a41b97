import type { AddressInfo } from 'node:net';
import { MemoryRuntimeStore, RuntimeService, WebhookNotFoundError, type WebhookDirectory } from '@runtimectl/core';
import { buildServer } from '@runtimectl/server-http';
import { createMemoryProvider } from '@runtimectl/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimectlClient, WebhookNotFoundError as ClientWebhookNotFoundError, type RuntimectlClient } from '../src/index';

const delivery = { delivery_id: 3, webhook_id: 'ops', event_id: 9, attempt: 2, outcome: 'retrying' as const, status_code: 503, error_code: 'http_status', response_excerpt: 'busy', duration_ms: 8, at_ms: 1 };
const directory: WebhookDirectory = {
  listWebhooks: async () => ({
    webhooks: [{ webhook_id: 'ops', url: 'https://hooks.example.com/in', event_types: null, runtime_id: null, key: null, after_event_id: 8, last_success_at_ms: null, last_failure_at_ms: 1, failing: true }],
  }),
  listWebhookDeliveries: async (webhookId, query) => {
    if (webhookId !== 'ops') throw new WebhookNotFoundError(webhookId);
    return { deliveries: [delivery], next_cursor: query.cursor === undefined ? '3' : null };
  },
};

let client: RuntimectlClient;
let close: () => Promise<void>;

beforeAll(async () => {
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
  const app = buildServer({ service, config: { version: '0.0.0-test' }, logger: pino({ level: 'silent' }), webhooks: directory });
  await app.listen({ host: '127.0.0.1', port: 0 });
  client = createRuntimectlClient({ baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
  close = () => app.close();
});

afterAll(() => close());

describe('webhooks through the client', () => {
  it('lists the webhooks and pages one’s deliveries', async () => {
    expect((await client.webhooks()).webhooks.map((webhook) => [webhook.webhook_id, webhook.failing])).toStrictEqual([['ops', true]]);
    const first = await client.webhookDeliveries('ops', { limit: 1 });
    expect(first).toStrictEqual({ deliveries: [delivery], next_cursor: '3' });
    expect((await client.webhookDeliveries('ops', { cursor: first.next_cursor! })).next_cursor).toBeNull();
  });

  it('an unknown webhook is WebhookNotFoundError; a bad limit is refused before sending', async () => {
    await expect(client.webhookDeliveries('nope')).rejects.toBeInstanceOf(ClientWebhookNotFoundError);
    await expect(client.webhookDeliveries('ops', { limit: 501 })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
