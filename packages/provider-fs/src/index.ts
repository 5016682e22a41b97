export { createFsProvider, FsProvider, type FsProviderSettings, type FsSnapshot } from './fs-provider';
export type { Manifest, ManifestEntry, SkippedEntry } from './manifest';
export { SnapshotStore, type CheckpointResult, type SnapshotStoreSettings } from './snapshot-store';
export type { CrashPoint, CrashPointHook } from './crash-points';
export { fsProviderDefinition, fsProviderDefinition as default } from './fs-definition';
export { isWorkspaceContentInStore } from './layers/workspace-content';
