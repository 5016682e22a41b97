import { describe } from 'vitest';
import { checkpointListTests } from './checkpoint-list-tests';
import { commitTests } from './commit-tests';
import { eventLogTests } from './event-log-tests';
import { fencedCommitTests } from './fenced-commit-tests';
import { fleetRecordFieldTests } from './fleet-record-field-tests';
import { idempotencyTests } from './idempotency-tests';
import { idleFieldTests } from './idle-field-tests';
import { intentTests } from './intent-tests';
import { leaseTests } from './lease-tests';
import { nodeRegistryTests } from './node-registry-tests';
import { readCopyTests } from './read-copy-tests';
import { retentionFieldTests } from './retention-field-tests';
import { recordRoundTripTests } from './record-round-trip-tests';
import { serviceOverStoreTests } from './service-over-store-tests';
import { sessionIndexTests } from './session-index-tests';
import { sessionListTests } from './session-list-tests';
import { webhookLogTests } from './webhook-log-tests';
import { apiKeyTests } from './api-key-tests';
import type { StoreConformanceOptions } from './store-conformance-options';
import { treeObjectTests } from './tree-object-tests';

/**
 * The store conformance suite: call it at the top level of a vitest test file with a factory
 * that makes a fresh, empty store per test (and, for a durable store, can reopen it). Registers
 * one `describe` per area; each area is exported on its own too. The memory store and the SQLite
 * store pass it, and any later store (Postgres) runs it unchanged. The fleet areas (leases,
 * fenced commits, nodes) race their "nodes" across `openPeer` stores when the factory gives one.
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`store conformance: ${options.name}`, () => {
    recordRoundTripTests(options);
    readCopyTests(options);
    commitTests(options);
    sessionListTests(options);
    sessionIndexTests(options);
    checkpointListTests(options);
    treeObjectTests(options);
    intentTests(options);
    eventLogTests(options);
    webhookLogTests(options);
    apiKeyTests(options);
    idempotencyTests(options);
    fleetRecordFieldTests(options);
    retentionFieldTests(options);
    idleFieldTests(options);
    leaseTests(options);
    fencedCommitTests(options);
    nodeRegistryTests(options);
    serviceOverStoreTests(options);
  });
}
