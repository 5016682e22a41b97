export { createLocalProvider, DEFAULT_WORKSPACE_QUOTA_BYTES, LocalProvider, type LocalProviderSettings } from './local-provider';
export type { WorkspaceQuotaObserver } from './quota/workspace-quota';
export type { IsolationInForce, LocalIsolation } from './exec/workspace-sandboxes';
export { descriptorPath, openDirectory, openDirectorySync } from './workspace-jail';
export { TimeSlices, SLICE_MS } from './time-slices';
export { isBookkeepingEntry, OWNER_ONLY_DIRECTORY_MODE, OWNER_ONLY_FILE_MODE } from './owner-only';
export { openWalkedFile, walkWorkspaceTree, WorkspaceChangedError, type WalkedPath, type WorkspaceVisitor } from './workspace-walk';
export { workspaceManifest, type KnownHashes } from './workspace-manifest';
