export * from './memory-provider/index';
export { delegatingProvider } from './delegating-provider';
export { openTricklingSockets, openSocketCount, waitForOpenSockets, type HostileSocket } from './hostile-sockets';
export { acceptsOnLoopback } from './loopback-connection';

export { runProviderConformance } from './conformance/run-provider-conformance';
export type {
  ProviderConformanceOptions,
  ProviderFactory,
  ProviderUnderTest,
  ConformanceCapabilities,
  ConformanceLimits,
  ConformanceTimeouts,
} from './conformance/conformance-options';
export { lifecycleTests } from './conformance/lifecycle-tests';
export { filesTests } from './conformance/files-tests';
export { fileLimitsTests } from './conformance/file-limits-tests';
export { pathRuleTests } from './conformance/path-rule-tests';
export { symlinkTests } from './conformance/symlink-tests';
export { execTests } from './conformance/exec-tests';
export { isolationTests } from './conformance/isolation-tests';
export { searchTests } from './conformance/search-tests';
export { exportTests } from './conformance/export-tests';
export { dirtyTrackingTests } from './conformance/dirty-tracking-tests';
export { backgroundJobTests } from './conformance/background-job-tests';
export { snapshotTests } from './conformance/snapshot-tests';
export { capabilityTests } from './conformance/capability-tests';
export { pauseResumeCycleTests, PAUSE_RESUME_CYCLES } from './conformance/pause-resume-cycle-tests';
export { manifestTests } from './conformance/manifest-tests';
export { snapshotFileTests } from './conformance/snapshot-file-tests';
export { ownershipTests } from './conformance/ownership-tests';
export { errorPrivacyTests } from './conformance/error-privacy-tests';
export { DEEP_TREE } from './conformance/deep-tree';
export { SEARCH_TREE, SEARCH_CASES, type SearchCase } from './conformance/search-fixture';
export { runApiConformance, CONTRACT_ROUTES, type ApiConformanceOptions, type ApiConformanceTimeouts } from './api-conformance';
export * from './store-conformance/public-api';
