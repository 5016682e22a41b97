import { describe, expect } from 'vitest';
import type { ProviderIntent } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { backendBinding, backendRef, checkpointIdOf, checkpointRecord, sessionRecord } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const intent: ProviderIntent = {
  intentId: 'i-1',
  kind: 'backend',
  providerId: 'memory',
  runtimeId: 'rt-1',
  backendId: 'bkd_1',
  createdAtMs: 1_764_000_000_000,
  nodeId: 'node-a',
};

/** Drops `field` from a copy of `record`: a record written by code older than the fleet. */
function without<T extends object>(record: T, field: keyof T): T {
  const copy = { ...record };
  delete copy[field];
  return copy;
}

/**
 * The fleet's record fields: a runtime's home node, its binding's clean checkpoint and an
 * intent's node round-trip, survive a restart, and read as null (or absent) when never set.
 */
export function fleetRecordFieldTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('fleet record fields', () => {
    const harness = useStoreHarness(resolved);

    test("a runtime's home node and its binding's clean checkpoint round-trip, also after a restart", async () => {
      const clean = checkpointRecord(checkpointIdOf(1), 'rt-1', { backendRef: backendRef('snap-clean') });
      const session = sessionRecord('rt-1', {
        homeNodeId: 'node-a',
        headCheckpointId: clean.checkpointId,
        backend: backendBinding('bkd_1', { cleanCheckpointId: clean.checkpointId }),
      });
      await harness.store.commit({ sessions: [session], checkpoints: [clean] });
      expect(await harness.store.getSession('rt-1')).toStrictEqual(session);
      const reopened = await harness.restart();
      expect(await reopened.getSession('rt-1')).toStrictEqual(session);
      expect((await reopened.listSessionsByBackend('bkd_1'))[0]).toStrictEqual(session);
    });

    test('clearing the clean checkpoint (the first write after it) and the home node reads back null', async () => {
      const clean = checkpointRecord(checkpointIdOf(1), 'rt-1');
      const session = sessionRecord('rt-1', { homeNodeId: 'node-a', backend: backendBinding('bkd_1', { cleanCheckpointId: clean.checkpointId }) });
      await harness.store.commit({ sessions: [session], checkpoints: [clean] });
      const dirty = { ...session, homeNodeId: null, backend: { ...session.backend!, cleanCheckpointId: null } };
      await harness.store.commit({ sessions: [dirty] });
      expect(await harness.store.getSession('rt-1')).toStrictEqual(dirty);
    });

    test("an intent's node round-trips, also after a restart", async () => {
      await harness.store.commit({ intents: [intent] });
      expect(await harness.store.listIntents()).toStrictEqual([intent]);
      expect(await (await harness.restart()).listIntents()).toStrictEqual([intent]);
    });

    test('records that never set the fleet fields read them as null or absent', async () => {
      const session = without(sessionRecord('rt-1', { backend: without(backendBinding('bkd_1'), 'cleanCheckpointId') }), 'homeNodeId');
      await harness.store.commit({ sessions: [session], intents: [without(intent, 'nodeId')] });
      const read = await harness.store.getSession('rt-1');
      expect(read?.homeNodeId ?? null).toBeNull();
      expect(read?.backend?.cleanCheckpointId ?? null).toBeNull();
      expect({ ...read, homeNodeId: undefined, backend: { ...read?.backend, cleanCheckpointId: undefined } }).toEqual(session);
      const [readIntent] = await harness.store.listIntents();
      expect(readIntent?.nodeId ?? null).toBeNull();
      expect({ ...readIntent, nodeId: undefined }).toEqual(without(intent, 'nodeId'));
    });
  });
}
