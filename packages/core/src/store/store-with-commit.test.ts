import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore } from './memory-store';
import type { StoreBatch } from './runtime-store';
import { storeWithCommit } from './store-with-commit';

const session = (runtimeId: string) =>
  ({
    runtimeId,
    conversationId: 'c',
    senderId: 's',
    providerId: 'memory',
    providerOptions: {},
    status: 'idle',
    backend: null,
    headCheckpointId: null,
    pausedCheckpointId: null,
    parentRuntimeId: null,
    sourceCheckpointId: null,
    sessionState: {},
    metadata: {},
    lastError: null,
    createdAtMs: 1,
    updatedAtMs: 1,
  }) as never;

describe('storeWithCommit', () => {
  it("answers every other call with the store's own method, bound to the store (its private state included)", async () => {
    const store = new MemoryRuntimeStore();
    const view = storeWithCommit(store, async () => {});
    await store.commit({ sessions: [session('rt-1')] });
    expect((await view.getSession('rt-1'))?.runtimeId).toBe('rt-1');
    expect(await view.lastEventId()).toBe(0);
    expect(view.getSession).toBe(storeWithCommit(store, async () => {}).getSession);
  });

  it("commits through its own commit, never the store's", async () => {
    const store = new MemoryRuntimeStore();
    const seen: StoreBatch[] = [];
    const view = storeWithCommit(store, async (batch) => {
      seen.push(batch);
    });
    await view.commit({ sessions: [session('rt-1')] });
    expect(seen).toHaveLength(1);
    expect(await store.getSession('rt-1')).toBeUndefined();
  });

  it("stacks: a view of a view reaches the inner view's commit and the store's reads", async () => {
    const store = new MemoryRuntimeStore();
    const order: string[] = [];
    const inner = storeWithCommit(store, async (batch) => {
      order.push('inner');
      await store.commit(batch);
    });
    const outer = storeWithCommit(inner, async (batch) => {
      order.push('outer');
      await inner.commit(batch);
    });
    await outer.commit({ sessions: [session('rt-2')] });
    expect(order).toEqual(['outer', 'inner']);
    expect((await outer.getSession('rt-2'))?.runtimeId).toBe('rt-2');
  });

  it('sees a method of the store replaced after the view was made (as tests inject failures)', async () => {
    const store = new MemoryRuntimeStore();
    const view = storeWithCommit(store, async () => {});
    await view.getSession('rt-1');
    store.getSession = async () => {
      throw new Error('store down');
    };
    await expect(view.getSession('rt-1')).rejects.toThrow('store down');
  });

  it("reads a store's properties when asked, not when the view is made", () => {
    const store = Object.assign(new MemoryRuntimeStore(), { generation: 1 });
    const view = storeWithCommit(store, async () => {}) as unknown as { generation: number };
    store.generation = 2;
    expect(view.generation).toBe(2);
  });
});
