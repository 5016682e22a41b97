import { idempotencyRecordBytes, type IdempotencyRecord, type ProviderIntent } from '../records';

/** An `intents` row. */
export interface IntentRow {
  intent_id: string;
  kind: string;
  provider_id: string;
  runtime_id: string;
  backend_id: string;
  created_at_ms: number;
  node_id: string | null;
}

/** An `idempotency_keys` row. */
export interface IdempotencyRow {
  key: string;
  fingerprint: string;
  state: string;
  owner_id: string;
  status_code: number | null;
  response_body: string | null;
  created_at_ms: number;
  expires_at_ms: number;
  /** `idempotencyRecordBytes` of the record; triggers keep `idempotency_totals` in step. */
  stored_bytes: number;
}

export function intentToRow(intent: ProviderIntent): IntentRow {
  return {
    intent_id: intent.intentId,
    kind: intent.kind,
    provider_id: intent.providerId,
    runtime_id: intent.runtimeId,
    backend_id: intent.backendId,
    created_at_ms: intent.createdAtMs,
    node_id: intent.nodeId ?? null,
  };
}

export function intentFromRow(row: IntentRow): ProviderIntent {
  return {
    intentId: row.intent_id,
    kind: row.kind as ProviderIntent['kind'],
    providerId: row.provider_id,
    runtimeId: row.runtime_id,
    backendId: row.backend_id,
    createdAtMs: row.created_at_ms,
    nodeId: row.node_id,
  };
}

export function idempotencyToRow(record: IdempotencyRecord): IdempotencyRow {
  return {
    key: record.key,
    fingerprint: record.fingerprint,
    state: record.state,
    owner_id: record.ownerId,
    status_code: record.statusCode,
    response_body: record.responseBody,
    created_at_ms: record.createdAtMs,
    expires_at_ms: record.expiresAtMs,
    stored_bytes: idempotencyRecordBytes(record),
  };
}

export function idempotencyFromRow(row: IdempotencyRow): IdempotencyRecord {
  return {
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state as IdempotencyRecord['state'],
    ownerId: row.owner_id,
    statusCode: row.status_code,
    responseBody: row.response_body,
    createdAtMs: row.created_at_ms,
    expiresAtMs: row.expires_at_ms,
  };
}
