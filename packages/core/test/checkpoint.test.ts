import { describe, expect, it } from 'vitest';
import { MAX_SKIPPED_PATHS, MemoryRuntimeStore, RuntimeCheckpointResultSchema, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { createHarness, rejectionOf } from './harness';

describe('checkpoint (the seed: capture the current idle runtime)', () => {
  it('returns a generated rtcp_ id, the runtime, and no parent for the first checkpoint', async () => {
    const h = createHarness();
    const id = await h.open('agent-1');
    const result = await h.service.checkpoint({ runtime_id: id, name: 'first', metadata: { step: 1 } });
    expect(result.checkpoint_id).toMatch(/^rtcp_[0-9a-f]{32}$/);
    expect(result.runtime).toMatchObject({ runtime_id: 'agent-1', status: 'idle' });
    expect(result.parent_checkpoint_id).toBeNull();
    expect(result).toMatchObject({ name: 'first', metadata: { step: 1 }, reused_backend_snapshot: false });
  });

  it("names the runtime's previous head as the parent of the next checkpoint", async () => {
    const h = createHarness();
    const id = await h.open();
    const first = await h.service.checkpoint({ runtime_id: id });
    const second = await h.service.checkpoint({ runtime_id: id });
    expect(second.parent_checkpoint_id).toBe(first.checkpoint_id);
    expect((await h.service.get(id)).head_checkpoint_id).toBe(second.checkpoint_id);
  });

  it('checkpoint of a clean runtime reuses the previous snapshot without calling the provider', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const first = await h.service.checkpoint({ runtime_id: id });
    const calls = h.provider.calls.checkpoint;
    const second = await h.service.checkpoint({ runtime_id: id });
    expect(first.reused_backend_snapshot).toBe(false);
    expect(second.reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(calls);
    expect(h.provider.snapshotIds()).toHaveLength(1);
  });

  it('checkpoint ids sort in creation order', async () => {
    const h = createHarness();
    const id = await h.open();
    const ids: string[] = [];
    for (let index = 0; index < 20; index += 1) ids.push((await h.service.checkpoint({ runtime_id: id })).checkpoint_id);
    expect([...ids].sort()).toEqual(ids);
  });

  it('a running runtime cannot be checkpointed: SessionBusy', async () => {
    const h = createHarness();
    const id = await h.open();
    const blocked = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    expect((await h.service.get(id)).runtime.status).toBe('running');
    const error = await rejectionOf(h.service.checkpoint({ runtime_id: id }));
    expect(error).toMatchObject({ code: 'session_busy', details: { runtime_id: id } });
    h.gate.release();
    await blocked;
    expect((await h.service.checkpoint({ runtime_id: id })).runtime.status).toBe('idle');
  });

  it('a paused runtime can be checkpointed and reuses its pause snapshot', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.pause({ runtime_id: id });
    const calls = h.provider.calls.checkpoint;
    const result = await h.service.checkpoint({ runtime_id: id });
    expect(result.reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(calls);
    const child = await h.service.checkout({ checkpoint_id: result.checkpoint_id });
    expect(await h.read(child.runtime.runtime_id, 'a.txt')).toBe('a');
  });

  it('captures the session state with the checkpoint', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.update({ runtime_id: id, session_state: { turn: 1 } });
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.update({ runtime_id: id, session_state: { turn: 2 } });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect((await h.service.get(child.runtime.runtime_id)).session_state).toEqual({ turn: 1 });
  });

  it('a provider without snapshots still checkpoints: a backend ref with no provider snapshot', async () => {
    const h = createHarness();
    const id = await h.open(undefined, 'nosnap');
    await h.write(id, 'a.txt', 'a');
    const result = await h.service.checkpoint({ runtime_id: id });
    expect(result.reused_backend_snapshot).toBe(false);
    const view = await h.service.getCheckpoint(result.checkpoint_id);
    expect(view).toMatchObject({ provider: 'nosnap', has_provider_snapshot: false, kind: 'checkpoint' });
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
  });

  it('checkpoint of an unknown runtime is runtime_not_found; of a closed one runtime_closed', async () => {
    const h = createHarness();
    expect(await rejectionOf(h.service.checkpoint({ runtime_id: 'nope' }))).toMatchObject({ code: 'runtime_not_found' });
    const id = await h.open();
    await h.service.close({ runtime_id: id });
    expect(await rejectionOf(h.service.checkpoint({ runtime_id: id }))).toMatchObject({ code: 'runtime_closed' });
  });

  it('lists a runtime\'s checkpoints newest first, page by page', async () => {
    const h = createHarness();
    const id = await h.open();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await h.service.checkpoint({ runtime_id: id })).checkpoint_id);
    const first = await h.service.listCheckpoints(id, { limit: 2 });
    const second = await h.service.listCheckpoints(id, { limit: 2, cursor: first.next_cursor! });
    const third = await h.service.listCheckpoints(id, { limit: 2, cursor: second.next_cursor! });
    expect([...first.checkpoints, ...second.checkpoints, ...third.checkpoints].map((c) => c.checkpoint_id)).toEqual(
      [...ids].reverse(),
    );
    expect(third.next_cursor).toBeNull();
  });
});

describe('checkpoint: the special files a provider skipped', () => {
  const skippingService = (count: number) => {
    const inner = createMemoryProvider();
    const skipped = Array.from({ length: count }, (_, index) => ({ path: `pipes/p${String(index).padStart(3, '0')}`, kind: 'fifo' as const }));
    const provider = delegatingProvider(inner, {
      checkpoint: async (backend, request) => ({ ...(await inner.checkpoint!(backend, request)), skipped }),
    });
    return new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'memory' });
  };

  it('lists them as skipped_paths, at most MAX_SKIPPED_PATHS (the first, in the provider\'s order), and leaves the field out when there are none', async () => {
    const service = skippingService(MAX_SKIPPED_PATHS + 5);
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const result = await service.checkpoint({ runtime_id: runtime.runtime_id });
    expect(result.skipped_paths).toHaveLength(MAX_SKIPPED_PATHS);
    expect(result.skipped_paths?.[0]).toEqual({ path: 'pipes/p000', kind: 'fifo' });
    expect(RuntimeCheckpointResultSchema.parse(result).skipped_paths).toHaveLength(MAX_SKIPPED_PATHS);
    // A clean runtime's checkpoint reuses the snapshot: no walk, nothing to list.
    expect(await service.checkpoint({ runtime_id: runtime.runtime_id })).not.toHaveProperty('skipped_paths');
    const none = skippingService(0);
    const other = await none.open({ conversation_id: 'c', sender_id: 's' });
    expect(await none.checkpoint({ runtime_id: other.runtime.runtime_id })).not.toHaveProperty('skipped_paths');
  });
});
