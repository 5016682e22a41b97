import type { IdempotencyRow, IntentRow } from './control-rows';
import type { NewEventRow } from './event-rows';
import type { NodeRow } from './node-rows';
import type { CheckpointMarkRow, CheckpointRow, SessionMarkRow, SessionRow, SnapshottedCheckpointRow, TreeObjectRow } from './record-rows';

/** The columns of each table, in the order the SQL stores bind and select them. */
export const SESSION_COLUMNS = [
  'runtime_id',
  'conversation_id',
  'sender_id',
  'status',
  'provider_id',
  'provider_options',
  'backend_id',
  'backend_provider_id',
  'backend_resource',
  'backend_source_snapshot_id',
  'session_state',
  'metadata',
  'parent_runtime_id',
  'forked_from_checkpoint_id',
  'head_checkpoint_id',
  'paused_checkpoint_id',
  'last_error',
  'keep_snapshots',
  'created_at_ms',
  'updated_at_ms',
  // Appended by the fleet's migration (store-sqlite v5, store-postgres v3).
  'backend_clean_checkpoint_id',
  'home_node_id',
  // Appended by the retention migration (store-sqlite v8, store-postgres v6).
  'retention',
  'expires_at_ms',
  // Appended by the idle migration (store-sqlite v11, store-postgres v9).
  'idle_pause_after_ms',
  'auto_resume',
  // Appended by the restore-verification migration (store-sqlite v12, store-postgres v10).
  'verify',
  // Appended by the background-processes migration (store-sqlite v13, store-postgres v11).
  'backend_nothing_running',
  // Appended by the API keys migration (store-sqlite v14, store-postgres v12).
  'opened_by_key',
] as const satisfies ReadonlyArray<keyof SessionRow>;

/**
 * A runtime's last activity: selected with SESSION_COLUMNS, written only by its own UPDATE
 * (StoreBatch.sessionMarks, one batch per policy pass), never by the session's upsert — a record
 * read before a mark was set cannot move it back. Added by the idle migration.
 */
export const SESSION_MARK_COLUMNS = ['last_active_at_ms'] as const satisfies ReadonlyArray<keyof SessionMarkRow>;

export const CHECKPOINT_COLUMNS = [
  'checkpoint_id',
  'runtime_id',
  'parent_checkpoint_id',
  'kind',
  'name',
  'metadata',
  'created_at_ms',
  'session',
  'ref_id',
  'ref_provider_id',
  'ref_source_backend_id',
  'ref_provider_snapshot_id',
  'ref_provider_snapshot_names',
  'ref_snapshot_deleted_at_ms',
  'ref_created_at_ms',
  // Appended by the manifests' migration (store-sqlite v9, store-postgres v7).
  'manifest_root',
  // Appended by the background-processes migration (store-sqlite v13, store-postgres v11).
  'ref_background_processes',
] as const satisfies ReadonlyArray<keyof CheckpointRow>;

/**
 * A checkpoint's marks (pinned, last used): selected with CHECKPOINT_COLUMNS, written only by
 * their own UPDATEs (StoreBatch.checkpointMarks), never by the checkpoint's upsert — a record read
 * before a mark was set cannot clear it. Added by the retention migration.
 */
export const CHECKPOINT_MARK_COLUMNS = ['pinned', 'last_used_at_ms'] as const satisfies ReadonlyArray<keyof CheckpointMarkRow>;

/** What a retention pass reads of a snapshotted checkpoint (no JSON documents): the marks come after these. */
export const SNAPSHOTTED_CHECKPOINT_COLUMNS = ['checkpoint_id', 'runtime_id', 'created_at_ms', 'ref_provider_id', 'ref_provider_snapshot_id'] as const satisfies ReadonlyArray<
  keyof SnapshottedCheckpointRow
>;
/** The columns of `tree_objects` (content-addressed manifest trees). */
export const TREE_OBJECT_COLUMNS = ['hash', 'body'] as const satisfies ReadonlyArray<keyof TreeObjectRow>;

export const INTENT_COLUMNS = ['intent_id', 'kind', 'provider_id', 'runtime_id', 'backend_id', 'created_at_ms', 'node_id'] as const satisfies ReadonlyArray<
  keyof IntentRow
>;

export const IDEMPOTENCY_COLUMNS = [
  'key',
  'fingerprint',
  'state',
  'owner_id',
  'status_code',
  'response_body',
  'created_at_ms',
  'expires_at_ms',
  'stored_bytes',
] as const satisfies ReadonlyArray<keyof IdempotencyRow>;

export const NODE_COLUMNS = ['node_id', 'advertise_url', 'version', 'started_at_ms', 'heartbeat_at_ms'] as const satisfies ReadonlyArray<keyof NodeRow>;

/** The columns an `events` insert binds (the id is the store's). */
export const EVENT_COLUMNS = ['type', 'at_ms', 'runtime_id', 'checkpoint_id', 'data'] as const satisfies ReadonlyArray<keyof NewEventRow>;
