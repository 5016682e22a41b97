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
import type { PoolDatabase } from './pool-database';
import type { PostgresLeases } from './postgres-leases';
import { quoted } from './sql-names';

const placeholders = (count: number) => Array.from({ length: count }, (_, index) => `$${index + 1}`).join(', ');

function webhookStatements(schema: string) {
  const cursors = `${quoted(schema)}.webhook_cursors`;
  const deliveries = `${quoted(schema)}.webhook_deliveries`;
  const cursorColumns = WEBHOOK_CURSOR_COLUMNS.join(', ');
  return {
    getCursor: `SELECT ${cursorColumns} FROM ${cursors} WHERE webhook_id = $1`,
    listCursors: `SELECT ${cursorColumns} FROM ${cursors} ORDER BY webhook_id`,
    upsertCursor:
      `INSERT INTO ${cursors} (${cursorColumns}) VALUES (${placeholders(WEBHOOK_CURSOR_COLUMNS.length)}) ` +
      `ON CONFLICT (webhook_id) DO UPDATE SET ${WEBHOOK_CURSOR_COLUMNS.slice(1).map((column) => `${column} = excluded.${column}`).join(', ')}`,
    insertDelivery: `INSERT INTO ${deliveries} (${WEBHOOK_DELIVERY_COLUMNS.join(', ')}) VALUES (${placeholders(WEBHOOK_DELIVERY_COLUMNS.length)})`,
    // $1 webhook, $2 before (exclusive), $3 limit.
    listDeliveries:
      `SELECT delivery_id, ${WEBHOOK_DELIVERY_COLUMNS.join(', ')} FROM ${deliveries} ` +
      'WHERE webhook_id = $1 AND delivery_id < $2 ORDER BY delivery_id DESC LIMIT $3',
    prune: `DELETE FROM ${deliveries} WHERE at_ms < $1`,
  };
}

/** Webhook cursors and delivery attempts (schema version 7); progress is one transaction checked against its fences. */
export class PostgresWebhookLog {
  readonly #db: PoolDatabase;
  readonly #leases: PostgresLeases;
  readonly #sql: ReturnType<typeof webhookStatements>;

  constructor(db: PoolDatabase, schema: string, leases: PostgresLeases) {
    this.#db = db;
    this.#leases = leases;
    this.#sql = webhookStatements(schema);
  }

  async cursor(webhookId: string): Promise<WebhookCursor | undefined> {
    const [row] = await this.#db.rows<WebhookCursorRow>(this.#sql.getCursor, [webhookId]);
    return row && webhookCursorFromRow(row);
  }

  async cursors(): Promise<WebhookCursor[]> {
    return (await this.#db.rows<WebhookCursorRow>(this.#sql.listCursors)).map(webhookCursorFromRow);
  }

  async record(progress: WebhookProgress): Promise<void> {
    await this.#db.transaction(async (client) => {
      await this.#leases.assertHeld(client, progress.fences ?? []);
      for (const delivery of progress.deliveries ?? []) {
        const row = webhookDeliveryToRow(delivery);
        await client.query(this.#sql.insertDelivery, WEBHOOK_DELIVERY_COLUMNS.map((column) => row[column]));
      }
      if (progress.cursor) {
        const row = webhookCursorToRow(progress.cursor);
        await client.query(this.#sql.upsertCursor, WEBHOOK_CURSOR_COLUMNS.map((column) => (column === 'failing' ? row.failing === 1 : row[column])));
      }
    });
  }

  async list(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    const before = query.beforeDeliveryId ?? Number.MAX_SAFE_INTEGER;
    return (await this.#db.rows<WebhookDeliveryRow>(this.#sql.listDeliveries, [query.webhookId, before, query.limit])).map(webhookDeliveryFromRow);
  }

  prune(beforeMs: number): Promise<number> {
    return this.#db.run(this.#sql.prune, [beforeMs]);
  }
}
