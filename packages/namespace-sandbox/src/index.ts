export { findCgroupHost, sweepSandboxGroups, type CgroupHost, type ControllerPlace } from './cgroup-host';
export { HolderFile } from './holder-file';
export { NamespaceSandbox, type Launch, type SandboxRecord } from './namespace-sandbox';
export { probeNamespaceSandbox, type NamespaceProbe, type ProbeSpec } from './probe';
export { type ProcessIdentity } from './process-start';
export { DEFAULT_SANDBOX_ID, resolveSandboxIdentity, type ResolvedSandboxIdentity, type SandboxIdentity, type SandboxIdentityRequest } from './sandbox-identity';
export { checkLimits, hasLimits, type LimitCounters, type SandboxLimits } from './sandbox-limits';
export { findEgressHelpers, type EgressHelper, type SandboxNetwork } from './sandbox-network';
export { type SandboxBind, type SandboxSpec } from './sandbox-spec';
