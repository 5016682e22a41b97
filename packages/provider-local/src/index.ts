export { createLocalProvider, DEFAULT_WORKSPACE_QUOTA_BYTES, LocalProvider, type LocalProviderSettings } from './local-provider';
export type { WorkspaceQuotaObserver } from './quota/workspace-quota';
export type { IsolationInForce, LocalIsolation } from './exec/workspace-sandboxes';
export { descriptorPath, openDirectory, openDirectorySync } from './workspace-jail';
