export { createMemoryProvider, MemoryProvider, type MemoryProviderSettings, type MemoryProviderCallCounts } from './memory-provider';
export { MemoryFileSystem } from './memory-file-system';
export type { MemoryExecHandler, MemoryExecContext, ExecOutput } from './memory-commands';
