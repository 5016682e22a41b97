import type { BackendResource } from '@runtimectl/provider';
import type { JsonValue } from '../../wire/common';
import type { RetentionOverride } from '../../retention/retention-policy';
import type { CheckpointRecord, SessionRecord, SnapshottedCheckpoint, SessionSnapshot, StoredRuntimeStatus } from '../records';

/** A `sessions` row as bound and as read back (column names are the SQL ones). */
export interface SessionRow {
  runtime_id: string;
  conversation_id: string;
  sender_id: string;
  status: string;
  provider_id: string;
  provider_options: string;
  backend_id: string | null;
  backend_provider_id: string | null;
  backend_resource: string | null;
  backend_source_snapshot_id: string | null;
  /** `backend.cleanCheckpointId`; null without a binding. */
  backend_clean_checkpoint_id: string | null;
  /** `backend.nothingRunning` as 0/1; null without a binding, when unknown, and in rows older than it. */
  backend_nothing_running: number | null;
  session_state: string;
  metadata: string;
  parent_runtime_id: string | null;
  forked_from_checkpoint_id: string | null;
  head_checkpoint_id: string | null;
  paused_checkpoint_id: string | null;
  last_error: string | null;
  keep_snapshots: number;
  created_at_ms: number;
  updated_at_ms: number;
  home_node_id: string | null;
  /** JSON of the runtime's own retention settings; null: the daemon's. */
  retention: string | null;
  expires_at_ms: number | null;
  /** null: the daemon's; 0: off for this runtime. */
  idle_pause_after_ms: number | null;
  /** 0 or 1; null: the daemon's. */
  auto_resume: number | null;
  /** The runtime's own restore verification (0/1); null: the default. */
  verify: number | null;
  /** The name of the API key that opened it; null: none. */
  opened_by_key: string | null;
}

/** A runtime's last activity (SESSION_MARK_COLUMNS): read with the row, never written by its upsert. */
export interface SessionMarkRow {
  last_active_at_ms: number | null;
}

/** A `checkpoints` row; the `ref_*` columns are all null when the checkpoint has no backend ref. */
export interface CheckpointRow {
  checkpoint_id: string;
  runtime_id: string;
  parent_checkpoint_id: string | null;
  kind: string;
  name: string | null;
  metadata: string;
  created_at_ms: number;
  session: string;
  ref_id: string | null;
  ref_provider_id: string | null;
  ref_source_backend_id: string | null;
  ref_provider_snapshot_id: string | null;
  ref_provider_snapshot_names: string | null;
  ref_snapshot_deleted_at_ms: number | null;
  ref_created_at_ms: number | null;
  /** null for checkpoints without a manifest, and rows older than manifests. */
  manifest_root: string | null;
  /** `backendRef.backgroundProcesses`; null without a ref, when unknown, and in rows older than the count. */
  ref_background_processes: number | null;
}

/** A `tree_objects` row: a manifest tree's hash and canonical encoding (see manifest/tree-object.ts). */
export interface TreeObjectRow {
  hash: string;
  body: Uint8Array;
}

/** A checkpoint's marks (CHECKPOINT_MARK_COLUMNS): read with the row, never written by its upsert. */
export interface CheckpointMarkRow {
  pinned: number;
  last_used_at_ms: number | null;
}

/** The columns of `checkpoints` a retention pass reads (SNAPSHOTTED_CHECKPOINT_COLUMNS): no documents. */
export interface SnapshottedCheckpointRow extends CheckpointMarkRow {
  checkpoint_id: string;
  runtime_id: string;
  created_at_ms: number;
  ref_provider_id: string;
  ref_provider_snapshot_id: string;
}

export function snapshottedFromRow(row: SnapshottedCheckpointRow): SnapshottedCheckpoint {
  return {
    checkpointId: row.checkpoint_id,
    runtimeId: row.runtime_id,
    createdAtMs: row.created_at_ms,
    ...(row.pinned === 1 ? { pinned: true } : {}),
    ...(row.last_used_at_ms !== null ? { lastUsedAtMs: row.last_used_at_ms } : {}),
    backendRef: { providerId: row.ref_provider_id, providerSnapshotId: row.ref_provider_snapshot_id },
  };
}

/** A `checkpoints` row as read back: the record's columns and its marks. */
export type StoredCheckpointRow = CheckpointRow & CheckpointMarkRow;

/**
 * JSON text of a document field. Throws (and so fails the whole batch) on what JSON cannot hold
 * faithfully rather than storing something else: `undefined` would become a missing column.
 */
export function toJson(value: unknown, field: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${field} is not JSON-serialisable`);
  return text;
}

export const fromJson = <T>(text: string): T => JSON.parse(text) as T;

export function sessionToRow(record: SessionRecord): SessionRow {
  const binding = record.backend;
  return {
    runtime_id: record.runtimeId,
    conversation_id: record.conversationId,
    sender_id: record.senderId,
    status: record.status,
    provider_id: record.providerId,
    provider_options: toJson(record.providerOptions, 'providerOptions'),
    backend_id: binding?.backendId ?? null,
    backend_provider_id: binding?.providerId ?? null,
    backend_resource: binding ? toJson(binding.resource, 'backend.resource') : null,
    backend_source_snapshot_id: binding?.sourceSnapshotId ?? null,
    backend_clean_checkpoint_id: binding?.cleanCheckpointId ?? null,
    backend_nothing_running: binding?.nothingRunning == null ? null : binding.nothingRunning ? 1 : 0,
    session_state: toJson(record.sessionState, 'sessionState'),
    metadata: toJson(record.metadata, 'metadata'),
    parent_runtime_id: record.parentRuntimeId,
    forked_from_checkpoint_id: record.forkedFromCheckpointId,
    head_checkpoint_id: record.headCheckpointId,
    paused_checkpoint_id: record.pausedCheckpointId,
    last_error: record.lastError,
    keep_snapshots: record.keepSnapshots ? 1 : 0,
    created_at_ms: record.createdAtMs,
    updated_at_ms: record.updatedAtMs,
    home_node_id: record.homeNodeId ?? null,
    retention: record.retention ? toJson(record.retention, 'retention') : null,
    expires_at_ms: record.expiresAtMs ?? null,
    idle_pause_after_ms: record.idlePauseAfterMs ?? null,
    auto_resume: record.autoResume == null ? null : record.autoResume ? 1 : 0,
    verify: record.verify == null ? null : record.verify ? 1 : 0,
    opened_by_key: record.openedByKey ?? null,
  };
}

export function sessionFromRow(row: SessionRow & Partial<SessionMarkRow>): SessionRecord {
  return {
    runtimeId: row.runtime_id,
    conversationId: row.conversation_id,
    senderId: row.sender_id,
    status: row.status as StoredRuntimeStatus,
    providerId: row.provider_id,
    providerOptions: fromJson<Record<string, unknown>>(row.provider_options),
    backend:
      row.backend_id === null
        ? null
        : {
            backendId: row.backend_id,
            providerId: row.backend_provider_id!,
            resource: fromJson<BackendResource>(row.backend_resource!),
            sourceSnapshotId: row.backend_source_snapshot_id,
            cleanCheckpointId: row.backend_clean_checkpoint_id,
            nothingRunning: row.backend_nothing_running === null ? null : row.backend_nothing_running === 1,
          },
    sessionState: fromJson<JsonValue>(row.session_state),
    metadata: fromJson<SessionRecord['metadata']>(row.metadata),
    parentRuntimeId: row.parent_runtime_id,
    forkedFromCheckpointId: row.forked_from_checkpoint_id,
    headCheckpointId: row.head_checkpoint_id,
    pausedCheckpointId: row.paused_checkpoint_id,
    lastError: row.last_error,
    keepSnapshots: row.keep_snapshots === 1,
    createdAtMs: row.created_at_ms,
    updatedAtMs: row.updated_at_ms,
    homeNodeId: row.home_node_id,
    ...(row.retention === null ? {} : { retention: fromJson<RetentionOverride>(row.retention) }),
    ...(row.expires_at_ms === null ? {} : { expiresAtMs: row.expires_at_ms }),
    ...(row.idle_pause_after_ms == null ? {} : { idlePauseAfterMs: row.idle_pause_after_ms }),
    ...(row.auto_resume == null ? {} : { autoResume: row.auto_resume === 1 }),
    ...(row.last_active_at_ms == null ? {} : { lastActiveAtMs: row.last_active_at_ms }),
    ...(row.verify === null ? {} : { verify: row.verify === 1 }),
    ...(row.opened_by_key == null ? {} : { openedByKey: row.opened_by_key }),
  };
}

export function checkpointToRow(record: CheckpointRecord): CheckpointRow {
  const ref = record.backendRef;
  return {
    checkpoint_id: record.checkpointId,
    runtime_id: record.runtimeId,
    parent_checkpoint_id: record.parentCheckpointId,
    kind: record.kind,
    name: record.name,
    metadata: toJson(record.metadata, 'metadata'),
    created_at_ms: record.createdAtMs,
    session: toJson(record.session, 'session'),
    ref_id: ref?.refId ?? null,
    ref_provider_id: ref?.providerId ?? null,
    ref_source_backend_id: ref?.sourceBackendId ?? null,
    ref_provider_snapshot_id: ref?.providerSnapshotId ?? null,
    ref_provider_snapshot_names: ref ? toJson(ref.providerSnapshotNames, 'backendRef.providerSnapshotNames') : null,
    ref_snapshot_deleted_at_ms: ref?.snapshotDeletedAtMs ?? null,
    ref_created_at_ms: ref?.createdAtMs ?? null,
    manifest_root: record.manifestRoot ?? null,
    ref_background_processes: ref?.backgroundProcesses ?? null,
  };
}

export function checkpointFromRow(row: StoredCheckpointRow): CheckpointRecord {
  return {
    ...(row.pinned === 1 ? { pinned: true } : {}),
    ...(row.last_used_at_ms !== null ? { lastUsedAtMs: row.last_used_at_ms } : {}),
    checkpointId: row.checkpoint_id,
    runtimeId: row.runtime_id,
    parentCheckpointId: row.parent_checkpoint_id,
    kind: row.kind as CheckpointRecord['kind'],
    name: row.name,
    metadata: fromJson<CheckpointRecord['metadata']>(row.metadata),
    createdAtMs: row.created_at_ms,
    session: fromJson<SessionSnapshot>(row.session),
    backendRef:
      row.ref_id === null
        ? null
        : {
            refId: row.ref_id,
            providerId: row.ref_provider_id!,
            sourceBackendId: row.ref_source_backend_id!,
            providerSnapshotId: row.ref_provider_snapshot_id,
            providerSnapshotNames: fromJson<string[]>(row.ref_provider_snapshot_names!),
            snapshotDeletedAtMs: row.ref_snapshot_deleted_at_ms,
            createdAtMs: row.ref_created_at_ms!,
            backgroundProcesses: row.ref_background_processes,
          },
    manifestRoot: row.manifest_root,
  };
}
