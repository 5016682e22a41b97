import { z } from 'zod';
import { RUNTIME_EVENT_TYPES } from '../store/event-log';

/** The most delivery attempts one `GET /webhooks/{id}/deliveries` page answers. */
export const MAX_WEBHOOK_DELIVERY_PAGE = 500;

/** A webhook id (from the daemon's config): what the routes, the delivery log and the `runtimectl-webhook-id` header name it by. */
export const WEBHOOK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const WebhookIdSchema = z.string().regex(WEBHOOK_ID, 'a webhook id: letters, digits, ".", "_", "-" (at most 64), starting with a letter or digit');

/** A configured webhook and where its delivery stands (`GET /api/v1/webhooks`). Never its secret. */
export const WebhookViewSchema = z.object({
  webhook_id: z.string(),
  /** The receiver's URL without credentials, query or fragment (which may carry secrets). */
  url: z.string(),
  /** Only events of these types are sent; null: every type. */
  event_types: z.array(z.enum(RUNTIME_EVENT_TYPES)).nullable(),
  /** Only events about this runtime are sent; null: every runtime. */
  runtime_id: z.string().nullable(),
  /** Only what this API key may see is sent (its name); null: every event. */
  key: z.string().nullable(),
  /** Every event up to this id is done with (delivered, given up on or filtered out); 0 before the first step. */
  after_event_id: z.number().int().min(0),
  last_success_at_ms: z.number().int().nullable(),
  last_failure_at_ms: z.number().int().nullable(),
  /** The last attempt failed: the receiver is failing now. */
  failing: z.boolean(),
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

export const WebhookListResultSchema = z.object({ webhooks: z.array(WebhookViewSchema) });
export type WebhookListResult = z.infer<typeof WebhookListResultSchema>;

export const WebhookDeliveryListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_WEBHOOK_DELIVERY_PAGE).optional(),
  /** The previous page's `next_cursor`. */
  cursor: z.string().regex(/^[1-9][0-9]{0,15}$/, 'a next_cursor of a previous page').optional(),
});
export type WebhookDeliveryListQuery = z.infer<typeof WebhookDeliveryListQuerySchema>;

/** One attempt to deliver one event. Never the receiver's body beyond a short excerpt. */
export const WebhookDeliveryViewSchema = z.object({
  delivery_id: z.number().int().positive(),
  webhook_id: z.string(),
  event_id: z.number().int().positive(),
  /** 1 for the first attempt. */
  attempt: z.number().int().positive(),
  /** `retrying`: failed, will be tried again; `failed`: the last attempt failed and delivery moved on. */
  outcome: z.enum(['delivered', 'retrying', 'failed']),
  status_code: z.number().int().nullable(),
  /** Why no 2xx came: `http_status`, `timeout`, `connection_refused`, `dns_failure`, `network_error`; null when delivered. */
  error_code: z.string().nullable(),
  /** At most the first 256 characters of the receiver's response body. */
  response_excerpt: z.string().nullable(),
  duration_ms: z.number().int().min(0),
  at_ms: z.number().int(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryViewSchema>;

export const WebhookDeliveryListResultSchema = z.object({
  /** Newest first. */
  deliveries: z.array(WebhookDeliveryViewSchema),
  next_cursor: z.string().nullable(),
});
export type WebhookDeliveryListResult = z.infer<typeof WebhookDeliveryListResultSchema>;

/**
 * What the HTTP routes ask about webhooks (the daemon's delivery engine answers). Throws
 * WebhookNotFoundError for an id the config does not name.
 */
export interface WebhookDirectory {
  listWebhooks(): Promise<WebhookListResult>;
  listWebhookDeliveries(webhookId: string, query: WebhookDeliveryListQuery): Promise<WebhookDeliveryListResult>;
}
