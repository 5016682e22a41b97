import { describe, expect } from 'vitest';
import { LeaseLostError, type IdempotencyRecord, type RuntimeStore, type StoreBatch } from '@runtimectl/core';
import { granted, lapsed, leaseRequest, RENEWED_TTL_MS, SHORT_TTL_MS } from './lease-fixtures';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendRef, checkpointIdOf, checkpointRecord, sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const completedKey: IdempotencyRecord = {
  key: 'k-fenced',
  fingerprint: 'sha256:fenced',
  state: 'completed',
  ownerId: 'node-a',
  statusCode: 200,
  responseBody: '{}',
  createdAtMs: 1_764_000_000_000,
  expiresAtMs: 1_764_000_000_000 + 3_600_000,
};

/** A batch touching every kind of record, made under `fences`. */
function everything(fences: StoreBatch['fences']): StoreBatch {
  return {
    sessions: [sessionRecord('rt-1', { status: 'paused', headCheckpointId: checkpointIdOf(1) }), sessionRecord('rt-new')],
    checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-1', { backendRef: backendRef('snap-fenced') })],
    intents: [{ intentId: 'i-fenced', kind: 'snapshot', providerId: 'memory', runtimeId: 'rt-1', backendId: 'bkd_1', createdAtMs: 1, nodeId: null }],
    resolvedIntentIds: ['i-open'],
    idempotencyRecords: [completedKey],
    events: [{ type: 'checkpoint.created', atMs: 1, runtimeId: 'rt-1', checkpointId: checkpointIdOf(1), data: {} }],
    fences,
  };
}

/** What a refused batch must have left as it was. */
async function observable(store: RuntimeStore) {
  return {
    runtime: await store.getSession('rt-1'),
    added: await store.getSession('rt-new'),
    checkpoint: await store.getCheckpoint(checkpointIdOf(1)),
    intents: (await store.listIntents()).map((intent) => intent.intentId),
    key: await storedKey(store),
    lastEventId: await store.lastEventId(),
  };
}

/** The stored record of the batch's Idempotency-Key, or undefined (a probe claim that wins is deleted again). */
async function storedKey(store: RuntimeStore): Promise<IdempotencyRecord | undefined> {
  const existing = await store.claimIdempotencyKey({ ...completedKey, state: 'in_flight', statusCode: null, responseBody: null });
  if (existing === undefined) await store.deleteIdempotencyKey(completedKey.key);
  return existing;
}

async function expectLeaseLost(commit: Promise<void>, runtimeId: string): Promise<void> {
  const error = await commit.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(LeaseLostError.isInstance(error), `expected LeaseLostError, got ${String(error)}`).toBe(true);
  expect((error as LeaseLostError).code).toBe('lease_lost');
  expect((error as LeaseLostError).runtimeId).toBe(runtimeId);
}

/**
 * Fencing: a commit made under leases is refused whole (LeaseLostError) unless every fence is
 * still an unexpired lease of its runtime, so a node whose lease lapsed cannot commit after
 * another node took the runtime over.
 */
export function fencedCommitTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('fenced commits', () => {
    const harness = useStoreHarness(resolved);
    const seed = () =>
      harness.store.commit({
        sessions: [sessionRecord('rt-1'), sessionRecord('rt-2')],
        intents: [{ intentId: 'i-open', kind: 'backend', providerId: 'memory', runtimeId: 'rt-1', backendId: 'bkd_1', createdAtMs: 0, nodeId: null }],
      });

    /** Commits `everything` under a fence that is no longer valid and checks it left nothing behind. */
    async function expectRefusedWhole(store: RuntimeStore, fences: StoreBatch['fences'], lostRuntimeId: string): Promise<void> {
      await expectLeaseLost(store.commit(everything(fences)), lostRuntimeId);
      expect(await observable(store)).toStrictEqual({
        runtime: sessionRecord('rt-1'),
        added: undefined,
        checkpoint: undefined,
        intents: ['i-open'],
        key: undefined,
        lastEventId: 0,
      });
    }

    test('a batch made under a valid fence commits whole', async () => {
      await seed();
      const fence = await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      await harness.store.commit(everything([fence]));
      const seen = await observable(harness.store);
      expect(seen.runtime?.status).toBe('paused');
      expect(seen.added).toBeDefined();
      expect(seen.checkpoint).toBeDefined();
      expect(seen.intents).toStrictEqual(['i-fenced']);
      expect(seen.key).toStrictEqual(completedKey);
      expect(seen.lastEventId).toBeGreaterThan(0);
    });

    test('a batch under several valid fences, shared and checkout ones included, commits', async () => {
      await seed();
      const fences = [
        await granted(harness.store, leaseRequest('rt-1', 'checkout', { holderId: 'node-b' })),
        await granted(harness.store, leaseRequest('rt-1', 'shared')),
        await granted(harness.store, leaseRequest('rt-2', 'exclusive')),
      ];
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { lastError: 'fenced' })], fences });
      expect((await harness.store.getSession('rt-1'))?.lastError).toBe('fenced');
    });

    test('a batch without fences, or with an empty list, is not checked', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], fences: [] });
      expect(await harness.store.getSession('rt-1')).toBeDefined();
    });

    test('a batch under a released fence is refused whole with LeaseLostError', async () => {
      await seed();
      const fence = await granted(harness.store, leaseRequest('rt-1', 'exclusive'));
      await harness.store.releaseLease(fence);
      await expectRefusedWhole(harness.store, [fence], 'rt-1');
    });

    test('a batch under a lapsed fence is refused whole, even before anyone else took the runtime', async () => {
      await seed();
      const fence = await granted(harness.store, leaseRequest('rt-1', 'exclusive', { ttlMs: SHORT_TTL_MS }));
      await lapsed(harness.store, 'rt-1');
      await expectRefusedWhole(harness.store, [fence], 'rt-1');
    });

    test('a stalled node whose lease lapsed and was taken over by another node cannot commit; the new holder can', async () => {
      await seed();
      const [stalled, takeover] = await harness.nodes(2);
      const late = await granted(stalled!, leaseRequest('rt-1', 'exclusive', { ttlMs: SHORT_TTL_MS }));
      await lapsed(takeover!, 'rt-1');
      const current = await granted(takeover!, leaseRequest('rt-1', 'exclusive', { holderId: 'node-b' }));
      await expectRefusedWhole(stalled!, [late], 'rt-1');
      await takeover!.commit({ sessions: [sessionRecord('rt-1', { lastError: 'taken over' })], fences: [current] });
      expect((await stalled!.getSession('rt-1'))?.lastError).toBe('taken over');
    });

    test('one lost fence among valid ones refuses the whole batch, naming the lost runtime', async () => {
      await seed();
      const valid = await granted(harness.store, leaseRequest('rt-1', 'shared'));
      const lost = await granted(harness.store, leaseRequest('rt-2', 'exclusive'));
      await harness.store.releaseLease(lost);
      await expectRefusedWhole(harness.store, [valid, lost], 'rt-2');
    });

    test("a fence presented for another runtime than its lease's, or with an unknown token, is refused", async () => {
      await seed();
      const fence = await granted(harness.store, leaseRequest('rt-2', 'exclusive'));
      await expectRefusedWhole(harness.store, [{ runtimeId: 'rt-1', token: fence.token }], 'rt-1');
      await expectRefusedWhole(harness.store, [{ runtimeId: 'rt-1', token: 'not-a-token' }], 'rt-1');
      await expectRefusedWhole(harness.store, [{ runtimeId: 'rt-1', token: '999999999999' }], 'rt-1');
    });

    test('a renewed lease keeps its fence valid past its first expiry', async () => {
      await seed();
      const fence = await granted(harness.store, leaseRequest('rt-1', 'exclusive', { ttlMs: RENEWED_TTL_MS }));
      await harness.store.renewLeases('node-a', 60_000);
      // Granted after the fence's lease and lives longer: once it lapsed, the unrenewed lease would have too.
      const marker = await granted(harness.store, leaseRequest('rt-marker', 'shared', { holderId: 'node-b', ttlMs: 2 * RENEWED_TTL_MS }));
      await lapsed(harness.store, marker.runtimeId);
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { lastError: 'renewed' })], fences: [fence] });
      expect((await harness.store.getSession('rt-1'))?.lastError).toBe('renewed');
    });
  });
}
