import { overrideToWire } from '../retention/retention-policy';
import type { CheckpointRecord, SessionRecord } from '../store/records';
import type { CheckpointView } from '../wire/checkpoints';
import type { RuntimeRecord } from '../wire/common';
import type { RuntimeDetail, RuntimeListItem } from '../wire/runtime-lifecycle';

/**
 * The public RuntimeRecord. Given the busy runtimes (an operation of their own holds a lease, on
 * any node), an idle one reads `running`; operations describing their own outcome pass none and
 * report the settled status.
 */
export function toRuntimeRecord(session: SessionRecord, busy?: ReadonlySet<string>): RuntimeRecord {
  return {
    runtime_id: session.runtimeId,
    conversation_id: session.conversationId,
    sender_id: session.senderId,
    status: session.status === 'idle' && busy?.has(session.runtimeId) ? 'running' : session.status,
    created_at_ms: session.createdAtMs,
    updated_at_ms: session.updatedAtMs,
  };
}

/** A runtime as `GET /runtimes` lists it: its record, provider, lineage and home node. */
export function toRuntimeListItem(session: SessionRecord, busy: ReadonlySet<string>): RuntimeListItem {
  return {
    ...toRuntimeRecord(session, busy),
    provider: session.providerId,
    parent_runtime_id: session.parentRuntimeId,
    forked_from_checkpoint_id: session.forkedFromCheckpointId,
    home_node_id: session.homeNodeId ?? null,
  };
}

export function toRuntimeDetail(session: SessionRecord, busy: ReadonlySet<string>): RuntimeDetail {
  return {
    runtime: toRuntimeRecord(session, busy),
    provider: session.providerId,
    head_checkpoint_id: session.headCheckpointId,
    paused_checkpoint_id: session.pausedCheckpointId,
    parent_runtime_id: session.parentRuntimeId,
    forked_from_checkpoint_id: session.forkedFromCheckpointId,
    metadata: session.metadata,
    session_state: session.sessionState,
    last_error: session.lastError,
    retention: overrideToWire(session.retention),
    expires_at_ms: session.expiresAtMs ?? null,
    idle_pause_after_ms: session.idlePauseAfterMs ?? null,
    auto_resume: session.autoResume ?? null,
    verify: session.verify ?? null,
    opened_by_key: session.openedByKey ?? null,
    home_node_id: session.homeNodeId ?? null,
  };
}

export function toCheckpointView(checkpoint: CheckpointRecord): CheckpointView {
  return {
    checkpoint_id: checkpoint.checkpointId,
    runtime_id: checkpoint.runtimeId,
    parent_checkpoint_id: checkpoint.parentCheckpointId,
    kind: checkpoint.kind,
    name: checkpoint.name,
    metadata: checkpoint.metadata,
    created_at_ms: checkpoint.createdAtMs,
    provider: checkpoint.backendRef?.providerId ?? null,
    has_provider_snapshot: Boolean(checkpoint.backendRef?.providerSnapshotId),
    pinned: checkpoint.pinned ?? false,
    last_used_at_ms: checkpoint.lastUsedAtMs ?? null,
    manifest_root: checkpoint.manifestRoot ?? null,
  };
}
