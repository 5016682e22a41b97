export { createFsProvider, FsProvider, type FsProviderSettings, type FsSnapshot } from './fs-provider';
export type { Manifest, ManifestEntry, SkippedEntry } from './manifest';
