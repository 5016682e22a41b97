import { MemoryRuntimeStore, WebhookNotFoundError } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { createWebhookDirectory } from './webhook-directory';

const settings = {
  id: 'ops',
  url: 'https://user:pw@hooks.example.com/in?token=s3cret',
  secret: 'whsec_directory_0123456789',
  eventTypes: ['runtime.closed' as const],
  maxAttempts: 3,
  baseBackoffMs: 1_000,
  maxBackoffMs: 10_000,
  timeoutMs: 1_000,
};
const attempt = (eventId: number) => ({ webhookId: 'ops', eventId, attempt: 1, outcome: 'delivered' as const, statusCode: 200, errorCode: null, responseExcerpt: null, durationMs: 3, atMs: 5 });

describe('the webhook directory', () => {
  it('shows each configured webhook with its cursor, never its secret, credentials or query', async () => {
    const store = new MemoryRuntimeStore();
    const directory = createWebhookDirectory(store, [settings, { ...settings, id: 'idle', eventTypes: undefined }]);
    await store.recordWebhookProgress({ cursor: { webhookId: 'ops', afterEventId: 9, lastSuccessAtMs: 4, lastFailureAtMs: 2, failing: false } });
    const listed = await directory.listWebhooks();
    expect(listed.webhooks).toStrictEqual([
      { webhook_id: 'ops', url: 'https://hooks.example.com/in', event_types: ['runtime.closed'], runtime_id: null, key: null, after_event_id: 9, last_success_at_ms: 4, last_failure_at_ms: 2, failing: false },
      { webhook_id: 'idle', url: 'https://hooks.example.com/in', event_types: null, runtime_id: null, key: null, after_event_id: 0, last_success_at_ms: null, last_failure_at_ms: null, failing: false },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/s3cret|whsec|pw@/);
  });

  it('pages the delivery log newest first with next_cursor, and refuses an unknown webhook', async () => {
    const store = new MemoryRuntimeStore();
    const directory = createWebhookDirectory(store, [settings]);
    for (let eventId = 1; eventId <= 5; eventId += 1) await store.recordWebhookProgress({ deliveries: [attempt(eventId)] });
    const first = await directory.listWebhookDeliveries('ops', { limit: 2 });
    expect(first.deliveries.map((delivery) => delivery.event_id)).toStrictEqual([5, 4]);
    const second = await directory.listWebhookDeliveries('ops', { limit: 2, cursor: first.next_cursor! });
    const third = await directory.listWebhookDeliveries('ops', { limit: 2, cursor: second.next_cursor! });
    expect([...second.deliveries, ...third.deliveries].map((delivery) => delivery.event_id)).toStrictEqual([3, 2, 1]);
    expect(third.next_cursor).toBeNull();
    await expect(directory.listWebhookDeliveries('other', {})).rejects.toSatisfy((error) => WebhookNotFoundError.isInstance(error));
  });
});
