import {
  WebhookNotFoundError,
  type WebhookCursor,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookDeliveryListResult,
  type WebhookDeliveryView,
  type WebhookDirectory,
  type WebhookListResult,
  type WebhookView,
} from '@runtimectl/core';
import type { WebhookEngineStore } from './engine-store';
import { publicWebhookUrl } from './receiver-url';
import type { WebhookSettings } from './webhook-settings';

const DEFAULT_DELIVERY_PAGE = 100;

function toWebhookView(webhook: WebhookSettings, cursor: WebhookCursor | undefined): WebhookView {
  return {
    webhook_id: webhook.id,
    url: publicWebhookUrl(webhook.url),
    event_types: webhook.eventTypes ?? null,
    runtime_id: webhook.runtimeId ?? null,
    key: webhook.key ?? null,
    after_event_id: cursor?.afterEventId ?? 0,
    last_success_at_ms: cursor?.lastSuccessAtMs ?? null,
    last_failure_at_ms: cursor?.lastFailureAtMs ?? null,
    failing: cursor?.failing ?? false,
  };
}

function toDeliveryView(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    delivery_id: delivery.deliveryId,
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    attempt: delivery.attempt,
    outcome: delivery.outcome,
    status_code: delivery.statusCode,
    error_code: delivery.errorCode,
    response_excerpt: delivery.responseExcerpt,
    duration_ms: delivery.durationMs,
    at_ms: delivery.atMs,
  };
}

/** The configured webhooks and their delivery logs as the HTTP routes show them: never a secret, credential or query string. */
export function createWebhookDirectory(store: WebhookEngineStore, webhooks: readonly WebhookSettings[]): WebhookDirectory {
  return {
    async listWebhooks(): Promise<WebhookListResult> {
      const cursors = new Map((await store.listWebhookCursors()).map((cursor) => [cursor.webhookId, cursor]));
      return { webhooks: webhooks.map((webhook) => toWebhookView(webhook, cursors.get(webhook.id))) };
    },

    async listWebhookDeliveries(webhookId: string, query: WebhookDeliveryListQuery): Promise<WebhookDeliveryListResult> {
      if (!webhooks.some((webhook) => webhook.id === webhookId)) throw new WebhookNotFoundError(webhookId);
      const limit = query.limit ?? DEFAULT_DELIVERY_PAGE;
      const read = await store.listWebhookDeliveries({
        webhookId,
        limit: limit + 1,
        ...(query.cursor === undefined ? {} : { beforeDeliveryId: Number(query.cursor) }),
      });
      const deliveries = read.slice(0, limit);
      return { deliveries: deliveries.map(toDeliveryView), next_cursor: read.length > limit ? String(deliveries.at(-1)!.deliveryId) : null };
    },
  };
}
