import { describe, expect } from 'vitest';
import type { IdempotencyRecord } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const NOW = 1_764_000_000_000;

const claim = (key: string, overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  key,
  fingerprint: 'sha256:first',
  state: 'in_flight',
  ownerId: 'daemon-1',
  statusCode: null,
  responseBody: null,
  createdAtMs: NOW,
  expiresAtMs: NOW + 60_000,
  ...overrides,
});

/** Idempotency-Key records: one claim wins, completion is kept, expiry frees the key. */
export function idempotencyTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('idempotency keys', () => {
    const harness = useStoreHarness(resolved);

    test('the first claim of a key wins; a second claim gets the first record back, unchanged', async () => {
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toBeUndefined();
      const second = await harness.store.claimIdempotencyKey(claim('k1', { fingerprint: 'sha256:other', ownerId: 'daemon-2' }));
      expect(second).toStrictEqual(claim('k1'));
    });

    test('of concurrent claims of one key exactly one wins', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, index) => harness.store.claimIdempotencyKey(claim('k-race', { ownerId: `daemon-${index}` }))),
      );
      expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    });

    test('a completed record reads back whole, with its status and body', async () => {
      await harness.store.claimIdempotencyKey(claim('k1'));
      const completed = claim('k1', { state: 'completed', statusCode: 200, responseBody: '{"ok":"ünïcödé"}' });
      await harness.store.putIdempotencyRecord(completed);
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toStrictEqual(completed);
      const reopened = await harness.restart();
      expect(await reopened.claimIdempotencyKey(claim('k1'))).toStrictEqual(completed);
    });

    test('an expired record no longer holds its key: a new claim replaces it', async () => {
      await harness.store.claimIdempotencyKey(claim('k1', { expiresAtMs: NOW + 10 }));
      expect(await harness.store.claimIdempotencyKey(claim('k1', { createdAtMs: NOW + 10, fingerprint: 'sha256:new' }))).toBeUndefined();
      expect(await harness.store.claimIdempotencyKey(claim('k1', { createdAtMs: NOW + 11 }))).toMatchObject({ fingerprint: 'sha256:new' });
    });

    test('a record committed with a batch is written atomically with it', async () => {
      await harness.store.claimIdempotencyKey(claim('k1'));
      const completed = claim('k1', { state: 'completed', statusCode: 200, responseBody: '{"runtime":"rt-1"}' });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], idempotencyRecords: [completed] });
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toStrictEqual(completed);
      const unreadable = { ...sessionRecord('rt-2') };
      Object.defineProperty(unreadable, 'metadata', {
        enumerable: true,
        get() {
          throw new Error('cannot be read (a batch that fails part-way)');
        },
      });
      const never = claim('k2', { state: 'completed', statusCode: 200, responseBody: '{}' });
      await expect(harness.store.commit({ idempotencyRecords: [never], sessions: [unreadable] })).rejects.toThrow();
      expect(await harness.store.claimIdempotencyKey(claim('k2'))).toBeUndefined();
    });

    test('deleting a key frees it; deleting an unknown key is fine', async () => {
      await harness.store.claimIdempotencyKey(claim('k1'));
      await harness.store.deleteIdempotencyKey('k1');
      await harness.store.deleteIdempotencyKey('never-claimed');
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toBeUndefined();
    });

    test('deleteExpiredIdempotencyKeys removes exactly the records expired by then', async () => {
      await harness.store.claimIdempotencyKey(claim('old', { expiresAtMs: NOW + 5 }));
      await harness.store.claimIdempotencyKey(claim('edge', { expiresAtMs: NOW + 10 }));
      await harness.store.claimIdempotencyKey(claim('live', { expiresAtMs: NOW + 11 }));
      expect(await harness.store.deleteExpiredIdempotencyKeys(NOW + 10)).toBe(2);
      expect(await harness.store.claimIdempotencyKey(claim('live'))).toMatchObject({ key: 'live' });
      expect(await harness.store.claimIdempotencyKey(claim('old'))).toBeUndefined();
    });
  });
}
