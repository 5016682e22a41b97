// The errors only the control plane raises. Those a provider throws (and their base class and
// codes) live in @runtimectl/provider; core's index re-exports them.
export { IdempotencyKeyReusedError } from './idempotency-errors';
export { RuntimeNotFoundError, CheckpointNotFoundError, WebhookNotFoundError } from './not-found-errors';
export { ApiKeyNotFoundError, ApiKeyExistsError } from './api-key-errors';
export {
  SessionBusyError,
  InvalidStateError,
  RuntimePausedError,
  RuntimeNotPausedError,
  RuntimeClosedError,
  RuntimeExpiredError,
  RuntimeFailedError,
  RuntimeExistsError,
} from './runtime-state-errors';
export { CheckpointSnapshotDeletedError } from './snapshot-errors';
export { ManifestUnavailableError } from './manifest-errors';
export { CheckpointVerificationFailedError, type DifferingPath } from './verification-errors';
export { StoreSchemaError, StoreUnavailableError } from './store-errors';
export { LeaseLostError, NodeUnreachableError, RuntimeOnOtherNodeError } from './fleet-errors';
