export { ERROR_CODES, type ErrorCode } from './error-codes';
export { RuntimectlError, type RuntimectlErrorOptions } from './runtimectl-error';
export { InvalidRequestError, IdempotencyKeyReusedError, FileTooLargeError, WorkspaceQuotaExceededError } from './request-errors';
export { RuntimeNotFoundError, CheckpointNotFoundError, PathNotFoundError, WebhookNotFoundError } from './not-found-errors';
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
export { SnapshotInUseError, CheckpointSnapshotDeletedError } from './snapshot-errors';
export { ManifestUnavailableError } from './manifest-errors';
export { CheckpointVerificationFailedError, type DifferingPath } from './verification-errors';
export {
  UnsupportedBackendError,
  ProviderError,
  BackendGoneError,
  ProviderSnapshotNotFoundError,
  ProviderTimeoutError,
  ProviderCapacityError,
} from './provider-errors';
export { StoreSchemaError, StoreUnavailableError } from './store-errors';
export { LeaseLostError, NodeUnreachableError, RuntimeOnOtherNodeError } from './fleet-errors';
