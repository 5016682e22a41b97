import { describe, expect } from 'vitest';
import type { RuntimeStore } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendBinding, backendRef, checkpointIdOf, checkpointRecord, sessionRecord, unreadable } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';


/** Everything the store reveals about the fixture ids, to compare before and after a batch. */
async function observable(store: RuntimeStore) {
  return {
    sessions: await store.listSessions({ limit: 100 }),
    counts: await store.countSessionsByStatus(),
    existing: await store.getSession('rt-existing'),
    added: await store.getSession('rt-added'),
    checkpoints: await store.listCheckpoints('rt-existing', { limit: 100 }),
    first: await store.getCheckpoint(checkpointIdOf(1)),
    bySnapshot: await store.listCheckpointsBySnapshot('memory', 'snap-new'),
    byBackend: await store.listSessionsByBackend('bkd_new'),
    snapshotIds: await store.listSnapshotIdsOfRuntime('rt-existing'),
  };
}

/**
 * commit upserts by id (a re-commit replaces the whole record) and is atomic: a batch that fails
 * part-way leaves nothing of itself behind, and the store keeps working.
 */
export function commitTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('commit: upsert and atomicity', () => {
    const harness = useStoreHarness(resolved);

    test('re-committing a session id replaces the whole record, dropping fields that were removed', async () => {
      await harness.store.commit({
        sessions: [sessionRecord('rt-1', { backend: backendBinding('bkd_1'), metadata: { a: 1, b: 2 }, lastError: 'boom' })],
      });
      const replacement = sessionRecord('rt-1', { status: 'paused', metadata: { b: 3 }, updatedAtMs: 1_764_000_000_500 });
      await harness.store.commit({ sessions: [replacement] });
      expect(await harness.store.getSession('rt-1')).toStrictEqual(replacement);
      expect((await harness.store.listSessions({ limit: 10 })).items).toHaveLength(1);
      expect(await harness.store.countSessionsByStatus()).toStrictEqual({ idle: 0, paused: 1, failed: 0, closed: 0 });
    });

    test('re-committing a checkpoint id replaces the whole record without duplicating it in lists', async () => {
      await harness.store.commit({
        sessions: [sessionRecord('rt-1')],
        checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-1', { name: 'old', backendRef: backendRef('snap-1') })],
      });
      const replacement = checkpointRecord(checkpointIdOf(1), 'rt-1', { metadata: { v: 2 }, backendRef: backendRef('snap-1') });
      await harness.store.commit({ checkpoints: [replacement] });
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(replacement);
      expect((await harness.store.listCheckpoints('rt-1', { limit: 10 })).items).toStrictEqual([replacement]);
      expect(await harness.store.listCheckpointsBySnapshot('memory', 'snap-1')).toStrictEqual([replacement]);
    });

    test('within one batch the last record with an id wins', async () => {
      const last = sessionRecord('rt-1', { status: 'failed', lastError: 'second' });
      await harness.store.commit({ sessions: [sessionRecord('rt-1', { lastError: 'first' }), last] });
      expect(await harness.store.getSession('rt-1')).toStrictEqual(last);
    });

    test('an empty batch resolves and changes nothing', async () => {
      await harness.store.commit({ sessions: [sessionRecord('rt-existing')] });
      const before = await observable(harness.store);
      await harness.store.commit({});
      await harness.store.commit({ sessions: [], checkpoints: [] });
      expect(await observable(harness.store)).toStrictEqual(before);
    });

    test('sessions and checkpoints of one batch are all visible once commit resolves', async () => {
      const session = sessionRecord('rt-1', { headCheckpointId: checkpointIdOf(2) });
      const checkpoints = [checkpointRecord(checkpointIdOf(1), 'rt-1'), checkpointRecord(checkpointIdOf(2), 'rt-1', { parentCheckpointId: checkpointIdOf(1) })];
      await harness.store.commit({ checkpoints, sessions: [session] });
      expect(await harness.store.getSession('rt-1')).toStrictEqual(session);
      expect((await harness.store.listCheckpoints('rt-1', { limit: 10 })).items).toStrictEqual([...checkpoints].reverse());
    });

    describe('a batch that fails mid-way leaves nothing of itself applied', () => {
      const existing = sessionRecord('rt-existing', { backend: backendBinding('bkd_old'), metadata: { version: 1 } });
      const seed = () => harness.store.commit({ sessions: [existing] });
      const goodPart = () => ({
        sessions: [
          sessionRecord('rt-added', { backend: backendBinding('bkd_new') }),
          { ...existing, status: 'paused' as const, backend: backendBinding('bkd_new'), metadata: { version: 2 }, headCheckpointId: checkpointIdOf(1) },
        ],
        checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-existing', { backendRef: backendRef('snap-new') })],
      });

      test('when its last checkpoint cannot be read', async () => {
        await seed();
        const before = await observable(harness.store);
        const batch = goodPart();
        const bad = unreadable(checkpointRecord(checkpointIdOf(2), 'rt-existing', { backendRef: backendRef('snap-new') }), 'metadata');
        await expect(harness.store.commit({ ...batch, checkpoints: [...batch.checkpoints, bad] })).rejects.toThrow();
        expect(await observable(harness.store)).toStrictEqual(before);
        expect(await harness.store.getCheckpoint(checkpointIdOf(2))).toBeUndefined();
      });

      test('when its last session cannot be read', async () => {
        await seed();
        const before = await observable(harness.store);
        const batch = goodPart();
        const bad = unreadable(sessionRecord('rt-bad'), 'sessionState');
        await expect(harness.store.commit({ ...batch, sessions: [...batch.sessions, bad] })).rejects.toThrow();
        expect(await observable(harness.store)).toStrictEqual(before);
        expect(await harness.store.getSession('rt-bad')).toBeUndefined();
      });

      test('and the store accepts the same batch once it is valid', async () => {
        await seed();
        const bad = unreadable(sessionRecord('rt-bad'), 'metadata');
        await expect(harness.store.commit({ sessions: [bad] })).rejects.toThrow();
        const batch = goodPart();
        await harness.store.commit(batch);
        expect(await harness.store.getSession('rt-existing')).toStrictEqual(batch.sessions[1]);
        expect(await harness.store.getSession('rt-added')).toStrictEqual(batch.sessions[0]);
        expect(await harness.store.listSessionsByBackend('bkd_new')).toHaveLength(2);
        expect(await harness.store.listSessionsByBackend('bkd_old')).toStrictEqual([]);
      });
    });
  });
}
