import { describe, expect } from 'vitest';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import {
  backendBinding,
  backendRef,
  checkpointIdOf,
  checkpointRecord,
  fullyLinkedSession,
  JSON_SAMPLES,
  sessionRecord,
} from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

/**
 * Every field of SessionRecord and CheckpointRecord comes back exactly as committed: null and
 * set optional fields, JSON documents of every shape (unicode, nesting, null, ~1 MiB),
 * provider options, bindings with resource objects, backend refs. Unknown ids read undefined.
 */
export function recordRoundTripTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('record round trips', () => {
    const harness = useStoreHarness(resolved);

    test('a session with every optional field null round-trips unchanged', async () => {
      const session = sessionRecord('rt-minimal');
      await harness.store.commit({ sessions: [session] });
      expect(await harness.store.getSession('rt-minimal')).toStrictEqual(session);
    });

    test('a session with every optional field set round-trips unchanged (binding, lineage, heads, error, keep_snapshots)', async () => {
      const { session, related } = fullyLinkedSession();
      await harness.store.commit({ sessions: [...related.sessions, session], checkpoints: related.checkpoints });
      expect(await harness.store.getSession(session.runtimeId)).toStrictEqual(session);
    });

    test('every stored status round-trips', async () => {
      const statuses = ['idle', 'paused', 'failed', 'closed'] as const;
      await harness.store.commit({ sessions: statuses.map((status) => sessionRecord(`rt-${status}`, { status })) });
      for (const status of statuses) expect((await harness.store.getSession(`rt-${status}`))?.status).toBe(status);
    });

    test('a binding resource keeps strings, numbers, booleans and nulls, and its source snapshot', async () => {
      const backend = backendBinding('bkd_resource', {
        providerId: 'e2b',
        resource: { sandboxId: 'sbx-ünï', port: 8080, ratio: 0.25, secure: false, region: null, empty: '' },
        sourceSnapshotId: 'snap-source',
      });
      await harness.store.commit({ sessions: [sessionRecord('rt-bound', { providerId: 'e2b', backend })] });
      expect((await harness.store.getSession('rt-bound'))?.backend).toStrictEqual(backend);
    });

    test("a binding's clean checkpoint and whether nothing of its commands runs (true, false, unknown) round-trip", async () => {
      const bound = [true, false, null].map((nothingRunning, index) =>
        sessionRecord(`rt-running-${index}`, { backend: backendBinding(`bkd_running_${index}`, { nothingRunning, cleanCheckpointId: nothingRunning ? 'rtcp_clean' : null }) }),
      );
      await harness.store.commit({ sessions: bound });
      for (const session of bound) expect((await harness.store.getSession(session.runtimeId))?.backend).toStrictEqual(session.backend);
    });

    for (const [label, value] of JSON_SAMPLES) {
      test(`session_state, metadata and provider options holding ${label} round-trip`, async () => {
        const session = sessionRecord('rt-json', { sessionState: value, metadata: { value }, providerOptions: { value } });
        await harness.store.commit({ sessions: [session] });
        expect(await harness.store.getSession('rt-json')).toStrictEqual(session);
      });

      test(`a checkpoint's session snapshot and metadata holding ${label} round-trip`, async () => {
        const session = sessionRecord('rt-json', { sessionState: value });
        const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-json', {
          metadata: { value },
          session: { ...checkpointRecord('x', 'rt-json').session, sessionState: value, metadata: { value }, providerOptions: { value } },
        });
        await harness.store.commit({ sessions: [session], checkpoints: [checkpoint] });
        expect(await harness.store.getCheckpoint(checkpoint.checkpointId)).toStrictEqual(checkpoint);
      });
    }

    test('a checkpoint without a backend ref, name or parent round-trips unchanged', async () => {
      const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-1');
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpoint] });
      expect(await harness.store.getCheckpoint(checkpoint.checkpointId)).toStrictEqual(checkpoint);
    });

    test('a pause checkpoint with a name, parent, metadata and a backend ref with several snapshot names round-trips unchanged', async () => {
      const session = sessionRecord('rt-1', { sessionState: { turn: 3 }, providerOptions: { template: 'base' } });
      const first = checkpointRecord(checkpointIdOf(1), 'rt-1');
      const pause = checkpointRecord(checkpointIdOf(2), 'rt-1', {
        parentCheckpointId: first.checkpointId,
        kind: 'pause',
        name: 'before «refactor» 🧪',
        metadata: { reason: 'idle', nested: { list: [1, 'two', null] } },
        createdAtMs: 1_764_000_123_456,
        session: {
          conversationId: 'conversation-9',
          senderId: 'sender-9',
          providerId: 'e2b',
          providerOptions: { template: 'base', cpu: 2 },
          sessionState: { turn: 3, history: ['a', 'b'] },
          metadata: { owner: 'ünïcode' },
        },
        backendRef: backendRef('snap-9', {
          providerId: 'e2b',
          sourceBackendId: 'bkd_source_9',
          providerSnapshotNames: ['team/agent:v1', 'team/agent:latest'],
          createdAtMs: 1_764_000_123_000,
        }),
      });
      await harness.store.commit({ sessions: [session], checkpoints: [first, pause] });
      expect(await harness.store.getCheckpoint(pause.checkpointId)).toStrictEqual(pause);
    });

    test('a backend ref whose snapshot was deleted (snapshot id null, deletion time set, no names) round-trips unchanged', async () => {
      const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-1', {
        backendRef: backendRef(null, { providerSnapshotNames: [], snapshotDeletedAtMs: 1_764_000_999_000 }),
      });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpoint] });
      expect(await harness.store.getCheckpoint(checkpoint.checkpointId)).toStrictEqual(checkpoint);
    });

    test('a backend ref of a provider without snapshots (snapshot id null, never deleted) round-trips unchanged', async () => {
      const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-1', { backendRef: backendRef(null, { providerId: 'local' }) });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpoint] });
      expect(await harness.store.getCheckpoint(checkpoint.checkpointId)).toStrictEqual(checkpoint);
    });

    test("a backend ref's count of background processes at its snapshot (0, some, unknown) round-trips unchanged", async () => {
      const counts = [0, 3, null];
      const checkpoints = counts.map((count, index) =>
        checkpointRecord(checkpointIdOf(index + 1), 'rt-1', { backendRef: backendRef(`snap-count-${index}`, { backgroundProcesses: count }) }),
      );
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints });
      for (const checkpoint of checkpoints) expect(await harness.store.getCheckpoint(checkpoint.checkpointId)).toStrictEqual(checkpoint);
      const listed = await harness.store.listCheckpointsBySnapshot('memory', 'snap-count-0');
      expect(listed.map((checkpoint) => checkpoint.backendRef?.backgroundProcesses)).toEqual([0]);
    });

    test('getSession and getCheckpoint of unknown ids resolve undefined, on an empty store and after commits', async () => {
      expect(await harness.store.getSession('rt-unknown')).toBeUndefined();
      expect(await harness.store.getCheckpoint(checkpointIdOf(404))).toBeUndefined();
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpointRecord(checkpointIdOf(1), 'rt-1')] });
      expect(await harness.store.getSession('rt-unknown')).toBeUndefined();
      expect(await harness.store.getSession('rt-')).toBeUndefined();
      expect(await harness.store.getCheckpoint(checkpointIdOf(404))).toBeUndefined();
      expect(await harness.store.getCheckpoint('rt-1')).toBeUndefined();
    });
  });
}
