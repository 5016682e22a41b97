export { createLocalProvider, DEFAULT_WORKSPACE_QUOTA_BYTES, LocalProvider, type LocalProviderSettings } from './local-provider';
export type { WorkspaceQuotaObserver } from './quota/workspace-quota';
export { DEFAULT_WORKSPACE_PATH, type IsolationInForce, type LocalIsolation } from './exec/workspace-sandboxes';
export { DEFAULT_SANDBOX_LIMITS } from './exec/default-limits';
export { descriptorPath, openDirectory, openDirectorySync } from './workspace-jail';
export { TimeSlices, SLICE_MS } from './time-slices';
export { KEPT_MODE_BITS, openWalkedFile, walkWorkspaceTree, WorkspaceChangedError, type WalkedPath, type WorkspaceVisitor } from './workspace-walk';
export { workspaceManifest, type KnownHashes } from './workspace-manifest';
export type { WorkspaceOwner } from './sandbox-ownership';
