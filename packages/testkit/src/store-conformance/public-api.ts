// The store conformance suite's public surface, re-exported by the package index in one line.
export { runStoreConformance } from './run-store-conformance';
export type {
  StoreConformanceOptions,
  StoreConformanceTimeouts,
  StoreFactory,
  StoreUnderTest,
} from './store-conformance-options';
export { recordRoundTripTests } from './record-round-trip-tests';
export { readCopyTests } from './read-copy-tests';
export { commitTests } from './commit-tests';
export { sessionListTests } from './session-list-tests';
export { sessionIndexTests } from './session-index-tests';
export { checkpointListTests } from './checkpoint-list-tests';
export { intentTests } from './intent-tests';
export { eventLogTests } from './event-log-tests';
export { webhookLogTests } from './webhook-log-tests';
export { apiKeyTests } from './api-key-tests';
export { idempotencyTests } from './idempotency-tests';
export { serviceOverStoreTests } from './service-over-store-tests';
export { fleetRecordFieldTests } from './fleet-record-field-tests';
export { leaseTests } from './lease-tests';
export { fencedCommitTests } from './fenced-commit-tests';
export { nodeRegistryTests } from './node-registry-tests';
export {
  sessionRecord,
  checkpointRecord,
  backendBinding,
  backendRef,
  checkpointIdOf,
  runtimeIdOf,
  JSON_SAMPLES,
} from './store-fixtures';
