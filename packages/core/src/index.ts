// Wire schemas (zod) and their types: the JSON contract shared by server, client and CLI.
export * from './wire';

export * from './errors';

// The provider contract (types, the errors providers throw, workspace path and search helpers),
// re-exported so the control plane's users need one import.
export * from '@runtimectl/provider';
export { ProviderRegistry, type ProviderRegistryOptions } from './provider/provider-registry';

export * from './manifest/index';

export type { ProviderCallEvent, ProviderCallSink } from './backend/provider-calls';

export type {
  SessionRecord,
  StoredRuntimeStatus,
  BackendBinding,
  BackendCheckpointRef,
  SessionSnapshot,
  CheckpointRecord,
  CheckpointMark,
  SessionMark,
  SnapshottedCheckpoint,
  ProviderIntent,
  IdempotencyRecord,
} from './store/records';
export { markedCheckpoint, withMarksOf } from './store/checkpoint-marks';
export { latestMarks } from './store/session-marks';
export { idempotencyRecordBytes } from './store/records';
export type {
  Page,
  SessionListQuery,
  CheckpointListQuery as StoreCheckpointListQuery,
  SnapshottedCheckpointQuery,
  SessionStore,
  CheckpointStore,
  StoreBatch,
  IntentStore,
  IdempotencyStore,
  TreeObjectStore,
  RuntimeStore,
} from './store/runtime-store';
export type { LeaseMode, LeaseRequest, LeaseGrant, RuntimeFence, LeaseStore, NodeRecord, NodeStore, FencedBatch } from './store/fleet-store';
export { MemoryRuntimeStore, type MemoryRuntimeStoreOptions } from './store/memory-store';
export { NO_RETENTION, effectivePolicy, type RetentionPolicy, type RetentionOverride } from './retention/retention-policy';
export { RUNTIME_EVENT_TYPES, type RuntimeEventType, type NewRuntimeEvent, type RuntimeEvent, type EventQuery, type EventStore } from './store/event-log';
export {
  WEBHOOK_RESPONSE_EXCERPT_MAX,
  type WebhookCursor,
  type WebhookDeliveryOutcome,
  type WebhookAttemptOutcome,
  type NewWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookProgress,
  type WebhookStore,
} from './store/webhook-log';
export type { StoredApiKey, ApiKeyStore } from './store/api-key-store';
export { leaseConflict } from './store/lease-conflict';
export { ProcessFleetState } from './store/process-fleet-state';
export * from './store/sql-rows/index';

export { createIdGenerator, checkoutRoot, type IdGenerator } from './runtime/ids';
export type { ReconcileReport } from './runtime/reconcile';
export type { FleetNode, NodeState } from './fleet/fleet-nodes';
export { MAINTENANCE_LEASE_ID } from './fleet/fleet-membership';
export {
  RuntimeService,
  type RuntimeServiceOptions,
  type RuntimeServiceObserver,
  type OperationEvent,
  type CallOptions,
  type OperationOptions,
} from './runtime/runtime-service';
export { MAX_DIFFERING_PATHS, type RestoreVerificationEvent } from './runtime/verify-restore';
export type { VerifyRestoresMode } from './runtime/service-context';

export { toEventView } from './runtime/event-queries';
