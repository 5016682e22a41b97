import { describe, expect } from 'vitest';
import { idempotencyRecordBytes, type IdempotencyRecord } from '@runtimectl/core';
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

    test('takeOverIdempotencyKey replaces an abandoned claim only while it is unchanged: of retries racing for it, exactly one wins', async () => {
      const abandoned = claim('k1', { ownerId: 'dead-node' });
      await harness.store.claimIdempotencyKey(abandoned);
      const nodes = await harness.nodes(4);
      const retries = nodes.map((store, index) => store.takeOverIdempotencyKey(abandoned, claim('k1', { ownerId: `node-${index}`, createdAtMs: NOW + 1 })));
      const won = await Promise.all(retries);
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = `node-${won.indexOf(true)}`;
      expect(await harness.store.claimIdempotencyKey(claim('k1', { createdAtMs: NOW + 2 }))).toMatchObject({ ownerId: winner, createdAtMs: NOW + 1, state: 'in_flight' });
    });

    test('takeOverIdempotencyKey refuses a claim that completed, was deleted, or another owner took since it was read', async () => {
      const abandoned = claim('k1', { ownerId: 'dead-node' });
      await harness.store.claimIdempotencyKey(abandoned);
      await harness.store.putIdempotencyRecord({ ...abandoned, state: 'completed', statusCode: 200, responseBody: '{}' });
      expect(await harness.store.takeOverIdempotencyKey(abandoned, claim('k1', { ownerId: 'node-1' }))).toBe(false);
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toMatchObject({ state: 'completed', ownerId: 'dead-node' });
      await harness.store.deleteIdempotencyKey('k1');
      expect(await harness.store.takeOverIdempotencyKey(abandoned, claim('k1', { ownerId: 'node-1' }))).toBe(false);
      expect(await harness.store.claimIdempotencyKey(claim('k1', { ownerId: 'node-2' }))).toBeUndefined();
      expect(await harness.store.takeOverIdempotencyKey(abandoned, claim('k1', { ownerId: 'node-1' }))).toBe(false);
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

    /** A completed record of `key` claimed at NOW + `age` with a `bodyBytes`-byte body. */
    const completedAt = (key: string, age: number, bodyBytes: number) =>
      claim(key, { state: 'completed', statusCode: 200, responseBody: 'x'.repeat(bodyBytes), createdAtMs: NOW + age });
    /** Whether the store still holds `key` (a probe claim that wins is deleted again, leaving the weight unchanged). */
    const held = async (key: string) => {
      const existing = await harness.store.claimIdempotencyKey(claim(key, { fingerprint: 'sha256:probe' }));
      if (existing === undefined) await harness.store.deleteIdempotencyKey(key);
      return existing !== undefined;
    };

    test('evictIdempotencyRecords deletes completed records oldest first until the rest weigh at most the total', async () => {
      const records = [completedAt('k3', 3, 1000), completedAt('k1', 1, 1000), completedAt('k2', 2, 1000), completedAt('k4', 4, 1000)];
      for (const record of records) await harness.store.putIdempotencyRecord(record);
      const each = idempotencyRecordBytes(records[0]!);
      expect(await harness.store.evictIdempotencyRecords(2 * each)).toBe(2);
      expect([await held('k1'), await held('k2'), await held('k3'), await held('k4')]).toEqual([false, false, true, true]);
      expect(await harness.store.evictIdempotencyRecords(2 * each)).toBe(0);
    });

    test('evictIdempotencyRecords breaks a tie of age by key, counts multi-byte characters as UTF-8 bytes, and never deletes a claim in flight', async () => {
      const inFlight = claim('in-flight', { createdAtMs: NOW - 100 });
      await harness.store.claimIdempotencyKey(inFlight);
      const wide = claim('b-wide', { state: 'completed', statusCode: 200, responseBody: 'é'.repeat(500), createdAtMs: NOW });
      await harness.store.putIdempotencyRecord(wide);
      await harness.store.putIdempotencyRecord(completedAt('a-narrow', 0, 500));
      expect(idempotencyRecordBytes(wide)).toBeGreaterThan(1000);
      expect(await harness.store.evictIdempotencyRecords(idempotencyRecordBytes(inFlight) + idempotencyRecordBytes(wide))).toBe(1);
      expect([await held('a-narrow'), await held('b-wide')]).toEqual([false, true]);
      expect(await harness.store.evictIdempotencyRecords(0)).toBe(1);
      expect(await held('in-flight')).toBe(true);
    });

    test('evictIdempotencyRecords weighs a record by idempotencyRecordBytes: a store holding exactly the total deletes nothing', async () => {
      const records = [completedAt('k1', 1, 700), completedAt('k2', 2, 1300)];
      for (const record of records) await harness.store.putIdempotencyRecord(record);
      const total = records.reduce((sum, record) => sum + idempotencyRecordBytes(record), 0);
      expect(await harness.store.evictIdempotencyRecords(total)).toBe(0);
      expect(await harness.store.evictIdempotencyRecords(total - 1)).toBe(1);
      expect([await held('k1'), await held('k2')]).toEqual([false, true]);
      const reopened = await harness.restart();
      expect(await reopened.evictIdempotencyRecords(idempotencyRecordBytes(records[1]!))).toBe(0);
    });

    test('a completed record whose response was not kept (null body) reads back as such', async () => {
      const notKept = claim('k1', { state: 'completed', statusCode: 200, responseBody: null });
      await harness.store.putIdempotencyRecord(notKept);
      expect(await harness.store.claimIdempotencyKey(claim('k1'))).toStrictEqual(notKept);
    });
  });
}
