export { HolderFile } from './holder-file';
export { NamespaceSandbox, type Launch, type SandboxRecord } from './namespace-sandbox';
export { probeNamespaceSandbox, type NamespaceProbe } from './probe';
export { type ProcessIdentity } from './process-start';
export { type SandboxBind, type SandboxSpec } from './sandbox-spec';
