export { createE2BProvider, E2BProvider } from './e2b-provider';
export type { E2BProviderSettings } from './e2b-settings';
export { e2bRuntimeOptionsSchema, type E2BRuntimeOptions } from './runtime-options';
export { e2bProviderDefinition, e2bProviderDefinition as default } from './e2b-definition';
