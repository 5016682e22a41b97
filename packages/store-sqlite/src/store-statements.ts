import type Database from 'better-sqlite3';
import {
  CHECKPOINT_COLUMNS,
  CHECKPOINT_MARK_COLUMNS,
  SNAPSHOTTED_CHECKPOINT_COLUMNS,
  EVENT_COLUMNS,
  IDEMPOTENCY_COLUMNS,
  INTENT_COLUMNS,
  SESSION_COLUMNS,
  SESSION_MARK_COLUMNS,
  TREE_OBJECT_COLUMNS,
  type CheckpointRow,
  type StoredCheckpointRow,
  type SnapshottedCheckpointRow,
  type EventRow,
  type IdempotencyRow,
  type NewEventRow,
  type IntentRow,
  type SessionRow,
  type TreeObjectRow,
} from '@runtimectl/core';

/**
 * Upsert by id as an UPDATE of the existing row, never `INSERT OR REPLACE`: a replace deletes
 * the row first, which would trip the foreign keys of every checkpoint and child pointing at it.
 */
function upsertSql(table: string, key: string, columns: readonly string[]): string {
  const updates = columns.filter((column) => column !== key).map((column) => `${column} = excluded.${column}`);
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')}) ` +
    `ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}`
  );
}

const SESSIONS = `SELECT ${[...SESSION_COLUMNS, ...SESSION_MARK_COLUMNS].join(', ')} FROM sessions`;
const CHECKPOINTS = `SELECT ${[...CHECKPOINT_COLUMNS, ...CHECKPOINT_MARK_COLUMNS].join(', ')} FROM checkpoints`;
const SNAPSHOTTED = `SELECT ${[...SNAPSHOTTED_CHECKPOINT_COLUMNS, ...CHECKPOINT_MARK_COLUMNS].join(', ')} FROM checkpoints`;
const EVENTS = `SELECT event_id, ${EVENT_COLUMNS.join(', ')} FROM events`;
const OF_TYPES = '(@types IS NULL OR type IN (SELECT value FROM json_each(@types)))';

type Statement<Params extends unknown[], Row = unknown> = Database.Statement<Params, Row>;
type Cursor = { cursor: string; limit: number };

export interface StoreStatements {
  upsertSession: Statement<[SessionRow]>;
  upsertCheckpoint: Statement<[CheckpointRow]>;
  getSession: Statement<[string], SessionRow>;
  listSessions: Statement<[Cursor], SessionRow>;
  listSessionsWithStatus: Statement<[Cursor & { status: string }], SessionRow>;
  listSessionsOnProvider: Statement<[Cursor & { providerId: string }], SessionRow>;
  listSessionsOnProviderWithStatus: Statement<[Cursor & { providerId: string; status: string }], SessionRow>;
  listChildSessions: Statement<[string], SessionRow>;
  listSessionsBySourceSnapshot: Statement<[string, string], SessionRow>;
  listSessionsByBackend: Statement<[string], SessionRow>;
  countSessionsByStatus: Statement<[], { status: string; count: number }>;
  countSessionsByHomeNode: Statement<[], { home_node_id: string; count: number }>;
  getCheckpoint: Statement<[string], StoredCheckpointRow>;
  listCheckpoints: Statement<[{ runtimeId: string; limit: number }], StoredCheckpointRow>;
  listCheckpointsAfter: Statement<[Cursor & { runtimeId: string }], StoredCheckpointRow>;
  listCheckpointsBySnapshot: Statement<[string, string], StoredCheckpointRow>;
  listSnapshottedCheckpoints: Statement<[{ limit: number }], SnapshottedCheckpointRow>;
  listSnapshottedCheckpointsAfter: Statement<[Cursor], SnapshottedCheckpointRow>;
  pinCheckpoint: Statement<[{ checkpointId: string; pinned: number }]>;
  useCheckpoint: Statement<[{ checkpointId: string; atMs: number }]>;
  markSessionActive: Statement<[{ runtimeId: string; atMs: number }]>;
  listSnapshotIdsOfRuntime: Statement<[string], { providerId: string; snapshotId: string }>;
  upsertIntent: Statement<[IntentRow]>;
  deleteIntent: Statement<[string]>;
  listIntents: Statement<[], IntentRow>;
  getIdempotencyKey: Statement<[string], IdempotencyRow>;
  upsertIdempotencyKey: Statement<[IdempotencyRow]>;
  takeOverIdempotencyKey: Statement<[IdempotencyRow & { abandoned_owner_id: string; abandoned_created_at_ms: number }]>;
  deleteIdempotencyKey: Statement<[string]>;
  deleteExpiredIdempotencyKeys: Statement<[number]>;
  idempotencyTotalBytes: Statement<[], { stored_bytes: number }>;
  oldestCompletedIdempotencyKeys: Statement<[number], { key: string; stored_bytes: number }>;
  insertEvent: Statement<[NewEventRow]>;
  listEvents: Statement<[EventCursor], EventRow>;
  listEventsOfRuntime: Statement<[EventCursor & { runtimeId: string }], EventRow>;
  lastEventId: Statement<[], { seq: number }>;
  pruneEvents: Statement<[number]>;
  insertTreeObject: Statement<[TreeObjectRow]>;
  getTreeObject: Statement<[string], TreeObjectRow>;
}

/** `types`: a JSON array of event types, or null for every type. */
type EventCursor = { after: number; limit: number; types: string | null };

/**
 * The SQL of every statement the store runs. Each lookup is served by an index of the schema
 * (`test/query-plans.test.ts` asserts that none scans a table or sorts); lists fetch
 * `limit + 1` rows to learn whether a next page exists.
 */
export const STATEMENT_SQL = {
  upsertSession: upsertSql('sessions', 'runtime_id', SESSION_COLUMNS),
  upsertCheckpoint: upsertSql('checkpoints', 'checkpoint_id', CHECKPOINT_COLUMNS),
  getSession: `${SESSIONS} WHERE runtime_id = ?`,
  listSessions: `${SESSIONS} WHERE runtime_id > @cursor ORDER BY runtime_id LIMIT @limit`,
  listSessionsWithStatus: `${SESSIONS} WHERE status = @status AND runtime_id > @cursor ORDER BY runtime_id LIMIT @limit`,
  listSessionsOnProvider: `${SESSIONS} WHERE backend_provider_id = @providerId AND runtime_id > @cursor ORDER BY runtime_id LIMIT @limit`,
  listSessionsOnProviderWithStatus:
    `${SESSIONS} WHERE backend_provider_id = @providerId AND status = @status AND runtime_id > @cursor ` +
    'ORDER BY runtime_id LIMIT @limit',
  listChildSessions: `${SESSIONS} WHERE parent_runtime_id = ? ORDER BY runtime_id`,
  listSessionsBySourceSnapshot: `${SESSIONS} WHERE backend_provider_id = ? AND backend_source_snapshot_id = ? ORDER BY runtime_id`,
  listSessionsByBackend: `${SESSIONS} WHERE backend_id = ? ORDER BY runtime_id`,
  countSessionsByStatus: 'SELECT status, count(*) AS count FROM sessions GROUP BY status',
  countSessionsByHomeNode:
    "SELECT home_node_id, count(*) AS count FROM sessions WHERE home_node_id IS NOT NULL AND status <> 'closed' GROUP BY home_node_id",
  getCheckpoint: `${CHECKPOINTS} WHERE checkpoint_id = ?`,
  // checkpoints_by_runtime walked backwards: newest first without a sort.
  listCheckpoints: `${CHECKPOINTS} WHERE runtime_id = @runtimeId ORDER BY checkpoint_id DESC LIMIT @limit`,
  listCheckpointsAfter: `${CHECKPOINTS} WHERE runtime_id = @runtimeId AND checkpoint_id < @cursor ORDER BY checkpoint_id DESC LIMIT @limit`,
  listCheckpointsBySnapshot: `${CHECKPOINTS} WHERE ref_provider_id = ? AND ref_provider_snapshot_id = ? ORDER BY checkpoint_id`,
  listSnapshottedCheckpoints: `${SNAPSHOTTED} WHERE ref_provider_snapshot_id IS NOT NULL ORDER BY checkpoint_id LIMIT @limit`,
  listSnapshottedCheckpointsAfter: `${SNAPSHOTTED} WHERE ref_provider_snapshot_id IS NOT NULL AND checkpoint_id > @cursor ORDER BY checkpoint_id LIMIT @limit`,
  pinCheckpoint: 'UPDATE checkpoints SET pinned = @pinned WHERE checkpoint_id = @checkpointId',
  useCheckpoint: 'UPDATE checkpoints SET last_used_at_ms = MAX(COALESCE(last_used_at_ms, @atMs), @atMs) WHERE checkpoint_id = @checkpointId',
  markSessionActive: 'UPDATE sessions SET last_active_at_ms = MAX(COALESCE(last_active_at_ms, @atMs), @atMs) WHERE runtime_id = @runtimeId',
  listSnapshotIdsOfRuntime:
    'SELECT DISTINCT ref_provider_id AS providerId, ref_provider_snapshot_id AS snapshotId FROM checkpoints ' +
    'WHERE runtime_id = ? AND ref_provider_snapshot_id IS NOT NULL ORDER BY providerId, snapshotId',
  upsertIntent: upsertSql('intents', 'intent_id', INTENT_COLUMNS),
  deleteIntent: 'DELETE FROM intents WHERE intent_id = ?',
  listIntents: `SELECT ${INTENT_COLUMNS.join(', ')} FROM intents ORDER BY created_at_ms, intent_id`,
  getIdempotencyKey: `SELECT ${IDEMPOTENCY_COLUMNS.join(', ')} FROM idempotency_keys WHERE key = ?`,
  upsertIdempotencyKey: upsertSql('idempotency_keys', 'key', IDEMPOTENCY_COLUMNS),
  takeOverIdempotencyKey:
    `UPDATE idempotency_keys SET ${IDEMPOTENCY_COLUMNS.filter((column) => column !== 'key').map((column) => `${column} = @${column}`).join(', ')} ` +
    "WHERE key = @key AND state = 'in_flight' AND owner_id = @abandoned_owner_id AND created_at_ms = @abandoned_created_at_ms",
  deleteIdempotencyKey: 'DELETE FROM idempotency_keys WHERE key = ?',
  deleteExpiredIdempotencyKeys: 'DELETE FROM idempotency_keys WHERE expires_at_ms <= ?',
  idempotencyTotalBytes: 'SELECT stored_bytes FROM idempotency_totals WHERE id = 1',
  oldestCompletedIdempotencyKeys:
    "SELECT key, stored_bytes FROM idempotency_keys WHERE state = 'completed' ORDER BY created_at_ms, key LIMIT ?",
  insertEvent: `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map((column) => `@${column}`).join(', ')})`,
  listEvents: `${EVENTS} WHERE event_id > @after AND ${OF_TYPES} ORDER BY event_id LIMIT @limit`,
  listEventsOfRuntime: `${EVENTS} WHERE runtime_id = @runtimeId AND event_id > @after AND ${OF_TYPES} ORDER BY event_id LIMIT @limit`,
  // AUTOINCREMENT's high-water mark: survives pruning every row.
  lastEventId: "SELECT seq FROM sqlite_sequence WHERE name = 'events'",
  pruneEvents: 'DELETE FROM events WHERE at_ms < ?',
  // Content-addressed: a hash already stored holds the same bytes.
  insertTreeObject: `INSERT INTO tree_objects (${TREE_OBJECT_COLUMNS.join(', ')}) VALUES (@hash, @body) ON CONFLICT (hash) DO NOTHING`,
  getTreeObject: `SELECT ${TREE_OBJECT_COLUMNS.join(', ')} FROM tree_objects WHERE hash = ?`,
} as const satisfies Record<keyof StoreStatements, string>;

/** Prepares every statement once per connection (better-sqlite3 statements are reusable). */
export function prepareStatements(db: Database.Database): StoreStatements {
  const prepared: Record<string, Database.Statement> = {};
  for (const [name, sql] of Object.entries(STATEMENT_SQL)) prepared[name] = db.prepare(sql);
  return prepared as unknown as StoreStatements;
}
