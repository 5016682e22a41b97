import { WEBHOOK_ID, type RuntimeEvent, type RuntimeEventType } from '@runtimectl/core';
import type { BackoffSettings } from './retry-backoff';

/** One receiver of the event log. */
export interface WebhookSettings extends BackoffSettings {
  /** Stable id: the cursor, the delivery log and the `runtimectl-webhook-id` header name the webhook by it. */
  id: string;
  /** http(s) URL the events are POSTed to. Credentials in it are sent as Basic auth and never shown. */
  url: string;
  /** The HMAC key of the signature header. Never logged, never in a response or an error. */
  secret: string;
  /** Only events of these types are sent (default: every type). */
  eventTypes?: RuntimeEventType[] | undefined;
  /** Only events about this runtime are sent (default: every runtime). */
  runtimeId?: string | undefined;
  /**
   * Only events this answers true for are sent (default: every event): what an API key may see,
   * when the webhook is bound to one. The others are passed over as the filtered-out ones are.
   */
  visible?: ((event: RuntimeEvent) => Promise<boolean>) | undefined;
  /** The name of the API key `visible` holds the webhook to, shown in `GET /webhooks` (never its token). */
  key?: string | undefined;
  /** Attempts per event, the first included; after the last failed one the event is recorded failed and skipped. */
  maxAttempts: number;
  /** One attempt's deadline (connect, send, response headers and the bounded excerpt). */
  timeoutMs: number;
}

export const WEBHOOK_DEFAULTS = {
  maxAttempts: 8,
  baseBackoffMs: 1_000,
  maxBackoffMs: 300_000,
  timeoutMs: 10_000,
} as const;

const positiveInteger = (value: number) => Number.isSafeInteger(value) && value > 0;

/**
 * Refuses settings the engine cannot run with (TypeError naming the webhook and the field, never
 * the secret or the URL's credentials). The daemon's config schema checks the same earlier, with
 * its own messages; this guards library callers.
 */
export function assertWebhookSettings(webhooks: readonly WebhookSettings[]): void {
  const seen = new Set<string>();
  for (const webhook of webhooks) {
    if (!WEBHOOK_ID.test(webhook.id)) throw new TypeError(`webhook id ${JSON.stringify(webhook.id)} is not letters, digits, ".", "_", "-" (at most 64)`);
    if (seen.has(webhook.id)) throw new TypeError(`webhook ${webhook.id} is configured twice`);
    seen.add(webhook.id);
    const protocol = URL.canParse(webhook.url) ? new URL(webhook.url).protocol : undefined;
    if (protocol !== 'http:' && protocol !== 'https:') throw new TypeError(`webhook ${webhook.id}: url must be an http:// or https:// URL`);
    if (webhook.secret.length === 0) throw new TypeError(`webhook ${webhook.id}: secret must not be empty`);
    for (const field of ['maxAttempts', 'baseBackoffMs', 'maxBackoffMs', 'timeoutMs'] as const) {
      if (!positiveInteger(webhook[field])) throw new TypeError(`webhook ${webhook.id}: ${field} must be a positive integer`);
    }
    if (webhook.baseBackoffMs > webhook.maxBackoffMs) throw new TypeError(`webhook ${webhook.id}: baseBackoffMs must not exceed maxBackoffMs`);
  }
}
