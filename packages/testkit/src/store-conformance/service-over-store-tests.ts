import { describe, expect } from 'vitest';
import { RuntimeService, type CheckpointRecord, type RuntimeStore, type SessionRecord } from '@runtimectl/core';
import { base64, fromBase64, text } from '../conformance/expect-helpers';
import { createMemoryProvider, type MemoryProvider } from '../memory-provider/memory-provider';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { storeTest, useStoreHarness } from './store-harness';

/** Every session and checkpoint the store holds, read through its public lists. */
async function everything(store: RuntimeStore): Promise<{ sessions: SessionRecord[]; checkpoints: CheckpointRecord[] }> {
  const sessions: SessionRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listSessions({ limit: 100, ...(cursor === undefined ? {} : { cursor }) });
    sessions.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const checkpoints: CheckpointRecord[] = [];
  for (const session of sessions) checkpoints.push(...(await store.listCheckpoints(session.runtimeId, { limit: 1_000 })).items);
  return { sessions, checkpoints };
}

const serviceOver = (store: RuntimeStore, provider: MemoryProvider) =>
  new RuntimeService({ store, providers: [provider], defaultProvider: provider.providerId, installationId: 'store-conformance' });

async function readText(service: RuntimeService, runtimeId: string, path: string): Promise<string> {
  return text(fromBase64((await service.readFile({ runtime_id: runtimeId, path })).content_base64));
}

/**
 * A RuntimeService over this store passes the core behaviours end to end (open → write →
 * checkpoint → checkout → pause → resume → close, with the testkit's memory provider), and a
 * NEW RuntimeService over the same store — reopened when the factory can — sees every runtime,
 * checkpoint, head, paused head, lineage link and backend binding: the daemon restart path.
 */
export function serviceOverStoreTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('a RuntimeService over this store', () => {
    const harness = useStoreHarness(resolved);

    test('passes the core behaviours, and a new service after a restart sees everything the first one wrote', async () => {
      const provider = createMemoryProvider();
      const before = serviceOver(harness.store, provider);

      const { runtime: root } = await before.open({
        conversation_id: 'conversation «e2e»',
        sender_id: 'sender-1',
        session_state: { turn: 1, notes: ['héllo 🧪'] },
        metadata: { suite: 'store-conformance' },
      });
      const rootId = root.runtime_id;
      await before.writeFile({ runtime_id: rootId, path: 'notes.txt', content_base64: base64('one') });
      const first = await before.checkpoint({ runtime_id: rootId, name: 'first', metadata: { step: 1 } });
      const child = (await before.checkout({ checkpoint_id: first.checkpoint_id, metadata: { branch: 'b' } })).runtime.runtime_id;
      await before.writeFile({ runtime_id: child, path: 'notes.txt', content_base64: base64('child') });

      const pause = await before.pause({ runtime_id: rootId, name: 'nap' });
      expect((await before.get(rootId)).runtime.status).toBe('paused');
      await before.resume({ runtime_id: rootId });
      expect(await readText(before, rootId, 'notes.txt')).toBe('one');
      await before.writeFile({ runtime_id: rootId, path: 'notes.txt', content_base64: base64('two') });

      const { runtime: sleeper } = await before.open({ conversation_id: 'c-2', sender_id: 's-2' });
      await before.writeFile({ runtime_id: sleeper.runtime_id, path: 'sleep.txt', content_base64: base64('zzz') });
      const sleeperPause = await before.pause({ runtime_id: sleeper.runtime_id });
      const { runtime: gone } = await before.open({ conversation_id: 'c-3', sender_id: 's-3' });
      await before.close({ runtime_id: gone.runtime_id });

      const written = await everything(harness.store);
      expect(written.sessions).toHaveLength(4);
      expect(written.checkpoints).toHaveLength(3);

      // The restart: a new service (and, for a durable store, a new store over the same state).
      const store = await harness.restart();
      const after = serviceOver(store, provider);
      expect(await everything(store)).toStrictEqual(written);
      expect(await store.countSessionsByStatus()).toStrictEqual({ idle: 2, paused: 1, failed: 0, closed: 1 });

      expect(await after.get(rootId)).toMatchObject({
        runtime: { status: 'idle', conversation_id: 'conversation «e2e»' },
        head_checkpoint_id: pause.checkpoint_id,
        paused_checkpoint_id: null,
        session_state: { turn: 1, notes: ['héllo 🧪'] },
        metadata: { suite: 'store-conformance' },
      });
      expect(await after.get(child)).toMatchObject({
        parent_runtime_id: rootId,
        forked_from_checkpoint_id: first.checkpoint_id,
        head_checkpoint_id: first.checkpoint_id,
        metadata: { suite: 'store-conformance', branch: 'b' },
      });
      expect(await after.get(sleeper.runtime_id)).toMatchObject({
        runtime: { status: 'paused' },
        head_checkpoint_id: sleeperPause.checkpoint_id,
        paused_checkpoint_id: sleeperPause.checkpoint_id,
      });
      expect((await after.get(gone.runtime_id)).runtime.status).toBe('closed');
      const rootCheckpoints = await after.listCheckpoints(rootId);
      expect(rootCheckpoints.checkpoints.map((checkpoint) => [checkpoint.checkpoint_id, checkpoint.kind, checkpoint.parent_checkpoint_id])).toStrictEqual([
        [pause.checkpoint_id, 'pause', first.checkpoint_id],
        [first.checkpoint_id, 'checkpoint', null],
      ]);

      // Bindings survived: the new service re-attaches to the live backends and sees their files.
      expect(await readText(after, rootId, 'notes.txt')).toBe('two');
      expect(await readText(after, child, 'notes.txt')).toBe('child');
      // The paused head and its snapshot ref survived: resume and checkout work after the restart.
      await after.resume({ runtime_id: sleeper.runtime_id });
      expect(await readText(after, sleeper.runtime_id, 'sleep.txt')).toBe('zzz');
      const again = await after.checkout({ checkpoint_id: first.checkpoint_id });
      expect(await readText(after, again.runtime.runtime_id, 'notes.txt')).toBe('one');
      expect((await after.get(again.runtime.runtime_id)).parent_runtime_id).toBe(rootId);

      const closed = await after.close({ runtime_id: rootId, cascade: true });
      expect([...closed.closed_runtime_ids].sort()).toStrictEqual([rootId, child, again.runtime.runtime_id].sort());
      expect((await after.list({ status: 'closed', limit: 50 })).runtimes).toHaveLength(4);
      expect(await store.listSessionsByBackend((await store.getSession(child))!.backend?.backendId ?? 'none')).toStrictEqual([]);
    });
  });
}
