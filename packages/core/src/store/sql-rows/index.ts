// The row shape shared by the SQL stores (store-sqlite, store-postgres): one column per field a
// lookup filters or orders on, JSON text for documents, so both stores hold the same records.
export {
  sessionToRow,
  sessionFromRow,
  checkpointToRow,
  checkpointFromRow,
  type SessionRow,
  type SessionMarkRow,
  type CheckpointRow,
  type CheckpointMarkRow,
  type StoredCheckpointRow,
  type SnapshottedCheckpointRow,
  snapshottedFromRow,
  type TreeObjectRow,
} from './record-rows';
export { intentToRow, intentFromRow, idempotencyToRow, idempotencyFromRow, type IntentRow, type IdempotencyRow } from './control-rows';
export { nodeFromRow, type NodeRow } from './node-rows';
export { eventToRow, eventFromRow, type EventRow, type NewEventRow } from './event-rows';
export { SESSION_COLUMNS, SESSION_MARK_COLUMNS, CHECKPOINT_COLUMNS, CHECKPOINT_MARK_COLUMNS, SNAPSHOTTED_CHECKPOINT_COLUMNS, INTENT_COLUMNS, IDEMPOTENCY_COLUMNS, NODE_COLUMNS, EVENT_COLUMNS, TREE_OBJECT_COLUMNS } from './columns';
export type { SchemaMigration } from './schema-migration';
export {
  webhookCursorToRow,
  webhookCursorFromRow,
  webhookDeliveryToRow,
  webhookDeliveryFromRow,
  WEBHOOK_CURSOR_COLUMNS,
  WEBHOOK_DELIVERY_COLUMNS,
  type WebhookCursorRow,
  type WebhookDeliveryRow,
  type NewWebhookDeliveryRow,
} from './webhook-rows';
export { apiKeyToRow, apiKeyFromRow, API_KEY_COLUMNS, type ApiKeyRow } from './api-key-rows';
