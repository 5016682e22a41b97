import { eventFromRow, eventToRow, type EventQuery, type EventRow, type NewRuntimeEvent, type RuntimeEvent } from '@runtimectl/core';
import type pg from 'pg';
import type { PoolDatabase } from './pool-database';
import { quoted } from './sql-names';

function eventLogStatements(schema: string) {
  const events = `${quoted(schema)}.events`;
  const log = `${quoted(schema)}.event_log`;
  const select = `SELECT event_id, type, at_ms, runtime_id, checkpoint_id, data FROM ${events}`;
  // $1 after, $2 limit, $3 types (null: every type), then $4 runtime.
  const ofTypes = '($3::text[] IS NULL OR type = ANY($3::text[]))';
  return {
    /** Takes `$1` ids; the row stays locked until the transaction ends. */
    reserve: `UPDATE ${log} SET last_event_id = last_event_id + $1 WHERE id = 1 RETURNING last_event_id`,
    insert:
      `INSERT INTO ${events} (event_id, type, at_ms, runtime_id, checkpoint_id, data) ` +
      'SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[])',
    list: `${select} WHERE event_id > $1 AND ${ofTypes} ORDER BY event_id LIMIT $2`,
    listOfRuntime: `${select} WHERE runtime_id = $4 AND event_id > $1 AND ${ofTypes} ORDER BY event_id LIMIT $2`,
    last: `SELECT last_event_id FROM ${log} WHERE id = 1`,
    prune: `DELETE FROM ${events} WHERE at_ms < $1`,
  };
}

/**
 * The event log on PostgreSQL (see the schema's version 4 for why ids come from one locked row
 * rather than a sequence). `appendInTransaction` runs inside `commit`'s transaction, last.
 */
export class PostgresEventLog {
  readonly #db: PoolDatabase;
  readonly #sql: ReturnType<typeof eventLogStatements>;

  constructor(db: PoolDatabase, schema: string) {
    this.#db = db;
    this.#sql = eventLogStatements(schema);
  }

  async appendInTransaction(client: pg.PoolClient, events: readonly NewRuntimeEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map(eventToRow);
    const { rows: reserved } = await client.query<{ last_event_id: string }>(this.#sql.reserve, [rows.length]);
    const first = Number(reserved[0]!.last_event_id) - rows.length + 1;
    await client.query(this.#sql.insert, [
      rows.map((_, index) => first + index),
      rows.map((row) => row.type),
      rows.map((row) => row.at_ms),
      rows.map((row) => row.runtime_id),
      rows.map((row) => row.checkpoint_id),
      rows.map((row) => row.data),
    ]);
  }

  async list(query: EventQuery): Promise<RuntimeEvent[]> {
    const params: unknown[] = [query.afterEventId, query.limit, query.types ?? null];
    const rows =
      query.runtimeId === undefined
        ? await this.#db.rows<EventRow>(this.#sql.list, params)
        : await this.#db.rows<EventRow>(this.#sql.listOfRuntime, [...params, query.runtimeId]);
    return rows.map(eventFromRow);
  }

  async lastEventId(): Promise<number> {
    const [row] = await this.#db.rows<{ last_event_id: string }>(this.#sql.last);
    return Number(row?.last_event_id ?? 0);
  }

  async prune(beforeMs: number): Promise<number> {
    return this.#db.run(this.#sql.prune, [beforeMs]);
  }
}
