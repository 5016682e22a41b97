import {
  WEBHOOK_CURSOR_COLUMNS,
  WEBHOOK_DELIVERY_COLUMNS,
  webhookCursorFromRow,
  webhookCursorToRow,
  webhookDeliveryFromRow,
  webhookDeliveryToRow,
  type WebhookCursor,
  type WebhookCursorRow,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookDeliveryRow,
  type WebhookProgress,
} from '@runtimectl/core';
import type Database from 'better-sqlite3';
import type { SqliteLeases } from './lease-table';

const bind = (columns: readonly string[]) => columns.map((column) => `@${column}`).join(', ');
const CURSORS = `SELECT ${WEBHOOK_CURSOR_COLUMNS.join(', ')} FROM webhook_cursors`;
const DELIVERIES = `SELECT delivery_id, ${WEBHOOK_DELIVERY_COLUMNS.join(', ')} FROM webhook_deliveries`;

/** The webhook statements (schema version 9), exported for the query-plan test. */
export const WEBHOOK_STATEMENT_SQL = {
  getWebhookCursor: `${CURSORS} WHERE webhook_id = ?`,
  listWebhookCursors: `${CURSORS} ORDER BY webhook_id`,
  upsertWebhookCursor:
    `INSERT INTO webhook_cursors (${WEBHOOK_CURSOR_COLUMNS.join(', ')}) VALUES (${bind(WEBHOOK_CURSOR_COLUMNS)}) ` +
    `ON CONFLICT (webhook_id) DO UPDATE SET ${WEBHOOK_CURSOR_COLUMNS.slice(1).map((column) => `${column} = excluded.${column}`).join(', ')}`,
  insertWebhookDelivery: `INSERT INTO webhook_deliveries (${WEBHOOK_DELIVERY_COLUMNS.join(', ')}) VALUES (${bind(WEBHOOK_DELIVERY_COLUMNS)})`,
  listWebhookDeliveries: `${DELIVERIES} WHERE webhook_id = @webhookId AND delivery_id < @before ORDER BY delivery_id DESC LIMIT @limit`,
  pruneWebhookDeliveries: 'DELETE FROM webhook_deliveries WHERE at_ms < ?',
} as const;

type WebhookStatements = { [name in keyof typeof WEBHOOK_STATEMENT_SQL]: Database.Statement };

/** Webhook cursors and delivery attempts in the store's file; progress is one transaction checked against the fences. */
export class SqliteWebhookLog {
  readonly #statements: WebhookStatements;
  readonly #record: (progress: WebhookProgress) => void;

  constructor(db: Database.Database, leases: SqliteLeases) {
    const statements = Object.fromEntries(Object.entries(WEBHOOK_STATEMENT_SQL).map(([name, sql]) => [name, db.prepare(sql)]));
    this.#statements = statements as WebhookStatements;
    const { insertWebhookDelivery, upsertWebhookCursor } = this.#statements;
    this.#record = db.transaction((progress: WebhookProgress) => {
      leases.assertHeld(progress.fences ?? []);
      for (const delivery of progress.deliveries ?? []) insertWebhookDelivery.run(webhookDeliveryToRow(delivery));
      if (progress.cursor) upsertWebhookCursor.run(webhookCursorToRow(progress.cursor));
    });
  }

  cursor(webhookId: string): WebhookCursor | undefined {
    const row = this.#statements.getWebhookCursor.get(webhookId) as WebhookCursorRow | undefined;
    return row && webhookCursorFromRow(row);
  }

  cursors(): WebhookCursor[] {
    return (this.#statements.listWebhookCursors.all() as WebhookCursorRow[]).map(webhookCursorFromRow);
  }

  record(progress: WebhookProgress): void {
    this.#record(progress);
  }

  list(query: WebhookDeliveryQuery): WebhookDelivery[] {
    const rows = this.#statements.listWebhookDeliveries.all({
      webhookId: query.webhookId,
      before: query.beforeDeliveryId ?? Number.MAX_SAFE_INTEGER,
      limit: query.limit,
    }) as WebhookDeliveryRow[];
    return rows.map(webhookDeliveryFromRow);
  }

  prune(beforeMs: number): number {
    return this.#statements.pruneWebhookDeliveries.run(beforeMs).changes;
  }
}
