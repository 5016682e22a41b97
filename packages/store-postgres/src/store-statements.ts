import { CHECKPOINT_COLUMNS, IDEMPOTENCY_COLUMNS, SNAPSHOTTED_CHECKPOINT_COLUMNS, INTENT_COLUMNS, SESSION_COLUMNS, SESSION_MARK_COLUMNS, TREE_OBJECT_COLUMNS } from '@runtimectl/core';
import { quoted } from './sql-names';

/**
 * Upsert by id as an UPDATE of the existing row (never delete + insert, which would trip the
 * foreign keys pointing at it). Parameters are `$1…$n` in `columns` order.
 */
function upsertSql(table: string, key: string, columns: readonly string[]): string {
  const updates = columns.filter((column) => column !== key).map((column) => `${column} = excluded.${column}`);
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}) ` +
    `ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}`
  );
}

/**
 * The SQL of every statement the store runs, on the tables of `schema` (names qualified, so
 * nothing depends on the connection's search_path). The same queries as store-sqlite's: every
 * list is ordered by id (byte order through `COLLATE "C"` columns) and fetches `limit + 1` rows
 * to learn whether a next page exists.
 */
export function storeStatements(schema: string) {
  const table = (name: string) => `${quoted(schema)}.${name}`;
  const sessions = `SELECT ${[...SESSION_COLUMNS, ...SESSION_MARK_COLUMNS].join(', ')} FROM ${table('sessions')}`;
  // pinned as 0/1, as the shared row shape (and store-sqlite) has it.
  const marks = 'pinned::int AS pinned, last_used_at_ms';
  const checkpoints = `SELECT ${CHECKPOINT_COLUMNS.join(', ')}, ${marks} FROM ${table('checkpoints')}`;
  return {
    upsertSession: upsertSql(table('sessions'), 'runtime_id', SESSION_COLUMNS),
    upsertCheckpoint: upsertSql(table('checkpoints'), 'checkpoint_id', CHECKPOINT_COLUMNS),
    upsertIntent: upsertSql(table('intents'), 'intent_id', INTENT_COLUMNS),
    deleteIntent: `DELETE FROM ${table('intents')} WHERE intent_id = $1`,
    getSession: `${sessions} WHERE runtime_id = $1`,
    // $1 cursor ('' sorts before every id), $2 limit, then the optional filters.
    listSessions: `${sessions} WHERE runtime_id > $1 ORDER BY runtime_id LIMIT $2`,
    listSessionsWithStatus: `${sessions} WHERE status = $3 AND runtime_id > $1 ORDER BY runtime_id LIMIT $2`,
    listSessionsOnProvider: `${sessions} WHERE backend_provider_id = $3 AND runtime_id > $1 ORDER BY runtime_id LIMIT $2`,
    listSessionsOnProviderWithStatus:
      `${sessions} WHERE backend_provider_id = $3 AND status = $4 AND runtime_id > $1 ` + 'ORDER BY runtime_id LIMIT $2',
    listChildSessions: `${sessions} WHERE parent_runtime_id = $1 ORDER BY runtime_id`,
    listSessionsBySourceSnapshot: `${sessions} WHERE backend_provider_id = $1 AND backend_source_snapshot_id = $2 ORDER BY runtime_id`,
    listSessionsByBackend: `${sessions} WHERE backend_id = $1 ORDER BY runtime_id`,
    countSessionsByStatus: `SELECT status, count(*) AS count FROM ${table('sessions')} GROUP BY status`,
    countSessionsByHomeNode:
      `SELECT home_node_id, count(*)::int AS count FROM ${table('sessions')} WHERE home_node_id IS NOT NULL AND status <> 'closed' GROUP BY home_node_id`,
    getCheckpoint: `${checkpoints} WHERE checkpoint_id = $1`,
    listCheckpoints: `${checkpoints} WHERE runtime_id = $1 ORDER BY checkpoint_id DESC LIMIT $2`,
    listCheckpointsAfter: `${checkpoints} WHERE runtime_id = $1 AND checkpoint_id < $3 ORDER BY checkpoint_id DESC LIMIT $2`,
    listCheckpointsBySnapshot: `${checkpoints} WHERE ref_provider_id = $1 AND ref_provider_snapshot_id = $2 ORDER BY checkpoint_id`,
    // $1 cursor ('' sorts before every id), $2 limit.
    listSnapshottedCheckpoints:
      `SELECT ${SNAPSHOTTED_CHECKPOINT_COLUMNS.join(', ')}, ${marks} FROM ${table('checkpoints')} ` +
      'WHERE ref_provider_snapshot_id IS NOT NULL AND checkpoint_id > $1 ORDER BY checkpoint_id LIMIT $2',
    pinCheckpoint: `UPDATE ${table('checkpoints')} SET pinned = $2 WHERE checkpoint_id = $1`,
    useCheckpoint: `UPDATE ${table('checkpoints')} SET last_used_at_ms = GREATEST(COALESCE(last_used_at_ms, $2), $2) WHERE checkpoint_id = $1`,
    // Every mark of a batch in one statement: $1 runtime ids, $2 times (a pass flushes them all).
    markSessionsActive:
      `UPDATE ${table('sessions')} AS s SET last_active_at_ms = GREATEST(COALESCE(s.last_active_at_ms, m.at_ms), m.at_ms) ` +
      'FROM unnest($1::text[], $2::bigint[]) AS m(runtime_id, at_ms) WHERE s.runtime_id = m.runtime_id',
    listSnapshotIdsOfRuntime:
      `SELECT DISTINCT ref_provider_id AS "providerId", ref_provider_snapshot_id AS "snapshotId" FROM ${table('checkpoints')} ` +
      'WHERE runtime_id = $1 AND ref_provider_snapshot_id IS NOT NULL ORDER BY "providerId", "snapshotId"',
    listIntents: `SELECT ${INTENT_COLUMNS.join(', ')} FROM ${table('intents')} ORDER BY created_at_ms, intent_id`,
    // Content-addressed: a hash already stored holds the same bytes. $1 hashes, $2 bodies.
    insertTreeObjects:
      `INSERT INTO ${table('tree_objects')} (${TREE_OBJECT_COLUMNS.join(', ')}) ` +
      'SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (hash) DO NOTHING',
    getTreeObjects: `SELECT ${TREE_OBJECT_COLUMNS.join(', ')} FROM ${table('tree_objects')} WHERE hash = ANY($1::text[])`,
  };
}

export type StoreStatements = ReturnType<typeof storeStatements>;

/** The idempotency-key statements (kept together: the only place this store touches those rows). */
export function idempotencyStatements(schema: string) {
  const table = `${quoted(schema)}.idempotency_keys`;
  const columns = IDEMPOTENCY_COLUMNS;
  const createdAt = columns.indexOf('created_at_ms') + 1;
  return {
    upsert: upsertSql(table, 'key', columns),
    /**
     * The claim, in one statement: inserts the key, or takes over a record that expired by the
     * claim's time; a live record is left as it is (the conflict then updates nothing and
     * returns no row). PostgreSQL locks the conflicting row, so of concurrent claims one wins.
     */
    claim: `${upsertSql(table, 'key', columns)} WHERE ${table}.expires_at_ms <= $${createdAt} RETURNING key`,
    /** The takeover of an abandoned claim: only while the stored row is still that claim (parameters: the new row, then the abandoned owner and creation time). */
    takeOver:
      `UPDATE ${table} SET ${columns.map((column, index) => `${column} = $${index + 1}`).filter((_, index) => columns[index] !== 'key').join(', ')} ` +
      `WHERE key = $${columns.indexOf('key') + 1} AND state = 'in_flight' AND owner_id = $${columns.length + 1} AND created_at_ms = $${columns.length + 2} RETURNING key`,
    get: `SELECT ${columns.join(', ')} FROM ${table} WHERE key = $1`,
    delete: `DELETE FROM ${table} WHERE key = $1`,
    deleteExpired: `DELETE FROM ${table} WHERE expires_at_ms <= $1`,
    /** The running total the trigger keeps, locked: evictions of several daemons take turns. */
    lockTotalBytes: `SELECT stored_bytes FROM ${quoted(schema)}.idempotency_totals WHERE id = 1 FOR UPDATE`,
    oldestCompleted: `SELECT key, stored_bytes FROM ${table} WHERE state = 'completed' ORDER BY created_at_ms, key LIMIT $1`,
    deleteKeys: `DELETE FROM ${table} WHERE key = ANY($1)`,
  };
}
