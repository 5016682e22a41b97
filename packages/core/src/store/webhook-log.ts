import type { RuntimeFence } from './fleet-store';

/**
 * Webhook delivery state: per configured webhook a cursor into the event log (the last event it
 * is done with) and a log of delivery attempts. The cursor advances only once an event was
 * accepted (a 2xx) or given up on after the last attempt, so delivery is at-least-once.
 */

/** Where one webhook stands. */
export interface WebhookCursor {
  /** The webhook's id (from the daemon's config). */
  webhookId: string;
  /** Every event up to this id is done with (delivered, given up on, or filtered out). */
  afterEventId: number;
  /** The last accepted delivery, epoch ms, or null. */
  lastSuccessAtMs: number | null;
  /** The last failed attempt, epoch ms, or null. */
  lastFailureAtMs: number | null;
  /** Whether the last attempt failed (the receiver is failing now). */
  failing: boolean;
}

/** What an attempt came to. `retrying`: it failed and will be tried again; `failed`: the last attempt failed, the engine moved on. */
export type WebhookDeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** An attempt as the metrics count it: accepted, failed and to be retried, or failed with no attempt left (the event is passed over). */
export type WebhookAttemptOutcome = 'delivered' | 'failed_attempt' | 'gave_up';

/** One attempt to deliver one event to one webhook, as the engine records it. */
export interface NewWebhookDelivery {
  webhookId: string;
  eventId: number;
  /** 1 for the first attempt. */
  attempt: number;
  outcome: WebhookDeliveryOutcome;
  /** The receiver's HTTP status, or null when no response came. */
  statusCode: number | null;
  /** Why no acceptable response came (`http_status`, `timeout`, `connection_refused`, …), or null when delivered. */
  errorCode: string | null;
  /** At most the first 256 characters of the receiver's response body (never more), or null. */
  responseExcerpt: string | null;
  durationMs: number;
  /** When the attempt started, epoch ms. */
  atMs: number;
}

export interface WebhookDelivery extends NewWebhookDelivery {
  /** Positive, increasing in commit order (the store assigns it). */
  deliveryId: number;
}

/** The longest response excerpt a delivery record keeps. */
export const WEBHOOK_RESPONSE_EXCERPT_MAX = 256;

export interface WebhookDeliveryQuery {
  webhookId: string;
  /** At most this many, newest first. */
  limit: number;
  /** Only attempts with a smaller delivery id (the previous page's last). */
  beforeDeliveryId?: number;
}

/** A delivery step written atomically: the attempts, and the cursor when it moved. */
export interface WebhookProgress {
  deliveries?: NewWebhookDelivery[];
  cursor?: WebhookCursor;
  /** Refused whole with LeaseLostError unless each is still an unexpired lease (the delivery lease). */
  fences?: RuntimeFence[];
}

export interface WebhookStore {
  /** The stored cursor of a webhook, or undefined before its first step. */
  getWebhookCursor(webhookId: string): Promise<WebhookCursor | undefined>;
  /** Every stored cursor, by webhook id. */
  listWebhookCursors(): Promise<WebhookCursor[]>;
  /** Appends the attempts and upserts the cursor, all or nothing, under the fences. */
  recordWebhookProgress(progress: WebhookProgress): Promise<void>;
  /** A webhook's attempts, newest first. */
  listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]>;
  /** Deletes attempts made before `beforeMs` (the event log's retention); resolves how many. */
  pruneWebhookDeliveries(beforeMs: number): Promise<number>;
}
