export { createLocalProvider, LocalProvider, type LocalProviderSettings } from './local-provider';
export type { IsolationInForce, LocalIsolation } from './exec/workspace-sandboxes';
