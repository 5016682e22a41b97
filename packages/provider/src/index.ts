// @runtimectl/provider: the contract between runtimectl and its providers. Providers depend on
// this package alone (and the testkit, to prove themselves); the control plane builds on it.

export {
  PROVIDER_SPECIFICATION_VERSION,
  defineProvider,
  type ProviderSpecificationVersion,
  type ProviderDefinition,
  type ProviderContext,
  type ProviderLogger,
  type ProviderTelemetry,
} from './provider-definition';

export type {
  BackendProviderV1,
  BackendResource,
  BackendCreateRequest,
  BackendCheckoutRequest,
  BackendAttachRequest,
  BackendSnapshotRequest,
  OwnedResources,
  ProviderSettingInForce,
  ProviderSnapshot,
} from './backend-provider-v1';
export type { ProviderBackend } from './provider-backend';
export type {
  PathStat,
  ExecRequest,
  ExecResult,
  GlobRequest,
  GrepRequest,
  GrepLineMatch,
  SearchResult,
  TempPathRequest,
  ExportedFile,
  ReadBytesOptions,
} from './operation-types';
export type { SnapshotKind, RestoreVerificationDefault, PathKind, SkippedPath, ProviderCapabilities } from './wire-types';
export { type ManifestDelta, type ManifestEntry, type ManifestEntryKind, IMPLIED_DIRECTORY_MODE } from './manifest-entry';

export { providerCapabilities } from './capabilities';
export { WorkspacePaths } from './workspace-paths';
export { globFiles, grepFiles, type SearchTree } from './search/search-files';

export { ERROR_CODES, type ErrorCode } from './errors/error-codes';
export { RuntimectlError, type RuntimectlErrorOptions } from './errors/runtimectl-error';
export { InvalidRequestError, FileTooLargeError, WorkspaceQuotaExceededError, PathNotFoundError } from './errors/request-errors';
export {
  UnsupportedBackendError,
  ProviderError,
  BackendGoneError,
  ProviderSnapshotNotFoundError,
  ProviderTimeoutError,
  ProviderCapacityError,
  SnapshotInUseError,
} from './errors/provider-errors';
export { fsPathOf, nameBytes, nameFromBytes } from './file-names';
