export { createMemoryProvider, MemoryProvider, type MemoryProviderSettings, type MemoryProviderCallCounts } from './memory-provider/memory-provider';
export { MemoryFileSystem } from './memory-provider/memory-file-system';
export type { MemoryExecHandler, MemoryExecContext, ExecOutput } from './memory-provider/memory-commands';
