import { describe, expect } from 'vitest';
import { LeaseLostError, type NewWebhookDelivery, type WebhookCursor, type WebhookDelivery } from '@runtimectl/core';
import { granted, leaseRequest } from './lease-fixtures';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { storeTest, useStoreHarness } from './store-harness';

const attempt = (webhookId: string, eventId: number, overrides: Partial<NewWebhookDelivery> = {}): NewWebhookDelivery => ({
  webhookId,
  eventId,
  attempt: 1,
  outcome: 'delivered',
  statusCode: 200,
  errorCode: null,
  responseExcerpt: null,
  durationMs: 12,
  atMs: 1_764_000_000_000,
  ...overrides,
});

const cursor = (webhookId: string, afterEventId: number, overrides: Partial<WebhookCursor> = {}): WebhookCursor => ({
  webhookId,
  afterEventId,
  lastSuccessAtMs: null,
  lastFailureAtMs: null,
  failing: false,
  ...overrides,
});

const withoutIds = (deliveries: WebhookDelivery[]): NewWebhookDelivery[] => deliveries.map(({ deliveryId: _, ...rest }) => rest);

/**
 * Webhook delivery state: a cursor per webhook and a log of delivery attempts, written together
 * (all or none) under the delivery lease's fence, read back whole, paged newest first, pruned by time.
 */
export function webhookLogTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('webhook cursors and delivery log', () => {
    const harness = useStoreHarness(resolved);

    test('a webhook with no progress has no cursor and no deliveries', async () => {
      expect(await harness.store.getWebhookCursor('hook-a')).toBeUndefined();
      expect(await harness.store.listWebhookCursors()).toStrictEqual([]);
      expect(await harness.store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 10 })).toStrictEqual([]);
    });

    test('progress writes the attempts and the cursor, which read back whole, per webhook', async () => {
      const failed = attempt('hook-a', 7, { outcome: 'retrying', statusCode: 503, errorCode: 'http_status', responseExcerpt: 'down for maintenance ✓' });
      await harness.store.recordWebhookProgress({ deliveries: [failed], cursor: cursor('hook-a', 6, { lastFailureAtMs: 5, failing: true }) });
      const delivered = attempt('hook-a', 7, { attempt: 2, atMs: 1_764_000_000_500 });
      await harness.store.recordWebhookProgress({ deliveries: [delivered], cursor: cursor('hook-a', 7, { lastSuccessAtMs: 9, lastFailureAtMs: 5 }) });
      await harness.store.recordWebhookProgress({ cursor: cursor('hook-b', 3) });
      expect(await harness.store.getWebhookCursor('hook-a')).toStrictEqual(cursor('hook-a', 7, { lastSuccessAtMs: 9, lastFailureAtMs: 5 }));
      expect(await harness.store.listWebhookCursors()).toStrictEqual([cursor('hook-a', 7, { lastSuccessAtMs: 9, lastFailureAtMs: 5 }), cursor('hook-b', 3)]);
      const read = await harness.store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 10 });
      expect(withoutIds(read)).toStrictEqual([delivered, failed]);
      expect(read[0]!.deliveryId).toBeGreaterThan(read[1]!.deliveryId);
      expect(await harness.store.listWebhookDeliveries({ webhookId: 'hook-b', limit: 10 })).toStrictEqual([]);
    });

    test('deliveries page newest first by the last delivery id read, each seen once', async () => {
      for (let eventId = 1; eventId <= 7; eventId += 1) await harness.store.recordWebhookProgress({ deliveries: [attempt('hook-a', eventId)] });
      await harness.store.recordWebhookProgress({ deliveries: [attempt('hook-b', 1)] });
      const seen: number[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await harness.store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 3, ...(before === undefined ? {} : { beforeDeliveryId: before }) });
        seen.push(...page.map((delivery) => delivery.eventId));
        if (page.length < 3) break;
        before = page.at(-1)!.deliveryId;
      }
      expect(seen).toStrictEqual([7, 6, 5, 4, 3, 2, 1]);
    });

    test('progress under a lost fence is refused whole with LeaseLostError', async () => {
      const fence = await granted(harness.store, leaseRequest('fleet:webhooks', 'exclusive'));
      await harness.store.recordWebhookProgress({ deliveries: [attempt('hook-a', 1)], cursor: cursor('hook-a', 1), fences: [fence] });
      await harness.store.releaseLease(fence);
      const error = await harness.store
        .recordWebhookProgress({ deliveries: [attempt('hook-a', 2)], cursor: cursor('hook-a', 2), fences: [fence] })
        .then(() => undefined, (caught: unknown) => caught);
      expect(LeaseLostError.isInstance(error), `expected LeaseLostError, got ${String(error)}`).toBe(true);
      expect(await harness.store.getWebhookCursor('hook-a')).toStrictEqual(cursor('hook-a', 1));
      expect((await harness.store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 10 })).map((delivery) => delivery.eventId)).toStrictEqual([1]);
    });

    test('pruning deletes attempts made before a time and keeps the cursors', async () => {
      await harness.store.recordWebhookProgress({
        deliveries: [attempt('hook-a', 1, { atMs: 100 }), attempt('hook-a', 2, { atMs: 200 }), attempt('hook-b', 1, { atMs: 300 })],
        cursor: cursor('hook-a', 2),
      });
      expect(await harness.store.pruneWebhookDeliveries(250)).toBe(2);
      expect(await harness.store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 10 })).toStrictEqual([]);
      expect(await harness.store.listWebhookDeliveries({ webhookId: 'hook-b', limit: 10 })).toHaveLength(1);
      expect(await harness.store.getWebhookCursor('hook-a')).toStrictEqual(cursor('hook-a', 2));
    });

    test('cursors and deliveries survive a restart', async () => {
      await harness.store.recordWebhookProgress({ deliveries: [attempt('hook-a', 4)], cursor: cursor('hook-a', 4, { lastSuccessAtMs: 1 }) });
      const store = await harness.restart();
      expect(await store.getWebhookCursor('hook-a')).toStrictEqual(cursor('hook-a', 4, { lastSuccessAtMs: 1 }));
      expect(withoutIds(await store.listWebhookDeliveries({ webhookId: 'hook-a', limit: 10 }))).toStrictEqual([attempt('hook-a', 4)]);
    });

    test('a cursor written on one node is read on another', async () => {
      const [first, second] = await harness.nodes(2);
      await first!.recordWebhookProgress({ cursor: cursor('hook-a', 11) });
      expect(await second!.getWebhookCursor('hook-a')).toStrictEqual(cursor('hook-a', 11));
    });
  });
}
