export { createMemoryProvider, MemoryProvider, type MemoryProviderSettings, type MemoryProviderCallCounts } from './memory-provider';
export { MemoryFileSystem } from './memory-file-system';
export type { MemoryExecHandler, MemoryExecContext, ExecOutput } from './memory-commands';
export { memoryProviderDefinition, memoryProviderDefinition as default } from './memory-definition';
