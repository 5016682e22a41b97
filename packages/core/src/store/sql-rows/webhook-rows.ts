import type { NewWebhookDelivery, WebhookCursor, WebhookDelivery, WebhookDeliveryOutcome } from '../webhook-log';

/** A `webhook_cursors` row. `failing` is 0/1 (SQLite) or a boolean (PostgreSQL). */
export interface WebhookCursorRow {
  webhook_id: string;
  after_event_id: number | string;
  last_success_at_ms: number | string | null;
  last_failure_at_ms: number | string | null;
  failing: number | boolean;
}

/** A `webhook_deliveries` row as an insert binds it: the store assigns `delivery_id`. */
export interface NewWebhookDeliveryRow {
  webhook_id: string;
  event_id: number;
  attempt: number;
  outcome: string;
  status_code: number | null;
  error_code: string | null;
  response_excerpt: string | null;
  duration_ms: number;
  at_ms: number;
}

/** A `webhook_deliveries` row as read (a driver may hand 64-bit integers back as strings). */
export interface WebhookDeliveryRow extends Omit<NewWebhookDeliveryRow, 'event_id' | 'at_ms'> {
  delivery_id: number | string;
  event_id: number | string;
  at_ms: number | string;
}

const orNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

export function webhookCursorToRow(cursor: WebhookCursor): WebhookCursorRow {
  return {
    webhook_id: cursor.webhookId,
    after_event_id: cursor.afterEventId,
    last_success_at_ms: cursor.lastSuccessAtMs,
    last_failure_at_ms: cursor.lastFailureAtMs,
    failing: cursor.failing ? 1 : 0,
  };
}

export function webhookCursorFromRow(row: WebhookCursorRow): WebhookCursor {
  return {
    webhookId: row.webhook_id,
    afterEventId: Number(row.after_event_id),
    lastSuccessAtMs: orNull(row.last_success_at_ms),
    lastFailureAtMs: orNull(row.last_failure_at_ms),
    failing: row.failing === true || row.failing === 1,
  };
}

export function webhookDeliveryToRow(delivery: NewWebhookDelivery): NewWebhookDeliveryRow {
  return {
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

export function webhookDeliveryFromRow(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    deliveryId: Number(row.delivery_id),
    webhookId: row.webhook_id,
    eventId: Number(row.event_id),
    attempt: row.attempt,
    outcome: row.outcome as WebhookDeliveryOutcome,
    statusCode: row.status_code,
    errorCode: row.error_code,
    responseExcerpt: row.response_excerpt,
    durationMs: Number(row.duration_ms),
    atMs: Number(row.at_ms),
  };
}

/** The columns of each webhook table, in the order the SQL stores bind and select them. */
export const WEBHOOK_CURSOR_COLUMNS = ['webhook_id', 'after_event_id', 'last_success_at_ms', 'last_failure_at_ms', 'failing'] as const satisfies ReadonlyArray<
  keyof WebhookCursorRow
>;
export const WEBHOOK_DELIVERY_COLUMNS = [
  'webhook_id',
  'event_id',
  'attempt',
  'outcome',
  'status_code',
  'error_code',
  'response_excerpt',
  'duration_ms',
  'at_ms',
] as const satisfies ReadonlyArray<keyof NewWebhookDeliveryRow>;
