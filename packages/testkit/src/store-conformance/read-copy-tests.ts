import { describe, expect } from 'vitest';
import type { CheckpointRecord, SessionRecord } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendBinding, backendRef, checkpointIdOf, checkpointRecord, sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Runs `vandalise`: a store may hand out frozen records, and then the first change throws a
 * TypeError, which is as good as a copy (the store is unchanged either way).
 */
function attempt(vandalise: () => void): void {
  try {
    vandalise();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/** true when neither `value` nor anything reachable from it can change. */
function isDeeplyFrozen(value: unknown): boolean {
  if (!isObject(value)) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeeplyFrozen);
}

/** Scribbles over every nested part of a session a caller could mutate (each change separately). */
function vandaliseSession(session: SessionRecord): void {
  attempt(() => (session.status = 'closed'));
  attempt(() => (session.metadata.injected = 'mutated'));
  attempt(() => isObject(session.sessionState) && (session.sessionState.turn = -1));
  attempt(() => (session.providerOptions.injected = true));
  attempt(() => session.backend && (session.backend.resource.sandboxId = 'mutated'));
  attempt(() => session.backend && (session.backend.backendId = 'bkd_mutated'));
}

function vandaliseCheckpoint(checkpoint: CheckpointRecord): void {
  attempt(() => (checkpoint.name = 'mutated'));
  attempt(() => (checkpoint.metadata.injected = 'mutated'));
  attempt(() => isObject(checkpoint.session.sessionState) && (checkpoint.session.sessionState.turn = -1));
  attempt(() => (checkpoint.session.metadata.injected = 'mutated'));
  attempt(() => checkpoint.backendRef && (checkpoint.backendRef.providerSnapshotId = 'mutated'));
  attempt(() => checkpoint.backendRef?.providerSnapshotNames.push('mutated'));
}

/**
 * Records are values: reads return copies or deeply frozen records, and commit keeps no object
 * the caller can still change. Mutating a result, or the object that was committed, never
 * changes what the store holds (the service builds new records by spreading old ones, so a
 * shared mutable object would corrupt the store silently).
 */
export function readCopyTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  const session = () =>
    sessionRecord('rt-1', {
      backend: backendBinding('bkd_1', { sourceSnapshotId: 'snap-1' }),
      sessionState: { turn: 1 },
      metadata: { team: 'a' },
      providerOptions: { template: 'base' },
      parentRuntimeId: 'rt-0',
    });
  const checkpoint = () =>
    checkpointRecord(checkpointIdOf(1), 'rt-1', {
      name: 'first',
      metadata: { team: 'a' },
      session: { ...checkpointRecord('x', 'rt-1').session, sessionState: { turn: 1 } },
      backendRef: backendRef('snap-1'),
    });

  describe('records are values: reads return copies or frozen records', () => {
    const harness = useStoreHarness(resolved);
    const seed = () => harness.store.commit({ sessions: [sessionRecord('rt-0'), session()], checkpoints: [checkpoint()] });

    test('mutating a committed session or checkpoint object afterwards does not change the store', async () => {
      const committedSession = session();
      const committedCheckpoint = checkpoint();
      await harness.store.commit({ sessions: [sessionRecord('rt-0'), committedSession], checkpoints: [committedCheckpoint] });
      vandaliseSession(committedSession);
      vandaliseCheckpoint(committedCheckpoint);
      expect(await harness.store.getSession('rt-1')).toStrictEqual(session());
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(checkpoint());
    });

    test('mutating a session returned by getSession does not change the store', async () => {
      await seed();
      vandaliseSession((await harness.store.getSession('rt-1'))!);
      expect(await harness.store.getSession('rt-1')).toStrictEqual(session());
    });

    test('mutating a checkpoint returned by getCheckpoint does not change the store', async () => {
      await seed();
      vandaliseCheckpoint((await harness.store.getCheckpoint(checkpointIdOf(1)))!);
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(checkpoint());
    });

    test('mutating sessions returned by every session list does not change the store', async () => {
      await seed();
      const lists = [
        (await harness.store.listSessions({ limit: 10 })).items,
        await harness.store.listChildSessions('rt-0'),
        await harness.store.listSessionsByBackend('bkd_1'),
        await harness.store.listSessionsBySourceSnapshot('memory', 'snap-1'),
      ];
      for (const list of lists) for (const item of list) vandaliseSession(item);
      expect(await harness.store.getSession('rt-1')).toStrictEqual(session());
      expect(await harness.store.listSessionsByBackend('bkd_1')).toStrictEqual([session()]);
      expect(await harness.store.countSessionsByStatus()).toStrictEqual({ idle: 2, paused: 0, failed: 0, closed: 0 });
    });

    test('mutating checkpoints returned by every checkpoint list does not change the store', async () => {
      await seed();
      const lists = [
        (await harness.store.listCheckpoints('rt-1', { limit: 10 })).items,
        await harness.store.listCheckpointsBySnapshot('memory', 'snap-1'),
      ];
      for (const list of lists) for (const item of list) vandaliseCheckpoint(item);
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(checkpoint());
      expect(await harness.store.listCheckpointsBySnapshot('memory', 'snap-1')).toStrictEqual([checkpoint()]);
      const snapshotIds = await harness.store.listSnapshotIdsOfRuntime('rt-1');
      snapshotIds[0]!.snapshotId = 'mutated';
      expect(await harness.store.listSnapshotIdsOfRuntime('rt-1')).toStrictEqual([{ providerId: 'memory', snapshotId: 'snap-1' }]);
    });

    test('two reads of the same record return distinct objects unless the record is deeply frozen', async () => {
      await seed();
      const [first, second] = [await harness.store.getSession('rt-1'), await harness.store.getSession('rt-1')];
      if (first === second) expect(isDeeplyFrozen(first)).toBe(true);
      if (first?.metadata === second?.metadata) expect(isDeeplyFrozen(first?.metadata)).toBe(true);
    });
  });
}
