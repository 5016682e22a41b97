import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('checkout (the seed: create a new runtime branch from a checkpoint)', () => {
  it('always creates a new runtime whose id is <source>:checkout:<32 hex>', async () => {
    const h = createHarness();
    const id = await h.open('agent-7');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const result = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(result.runtime.runtime_id).toMatch(/^agent-7:checkout:[0-9a-f]{32}$/);
    expect(result).toMatchObject({ checkpoint_id: checkpoint.checkpoint_id, source_runtime_id: 'agent-7' });
    expect(result.runtime.status).toBe('idle');
    const again = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(again.runtime.runtime_id).not.toBe(result.runtime.runtime_id);
  });

  it('a grandchild id keeps the root id, so ids stay bounded however deep the tree grows', async () => {
    const h = createHarness();
    let current = await h.open('root');
    for (let depth = 0; depth < 4; depth += 1) {
      const checkpoint = await h.service.checkpoint({ runtime_id: current });
      current = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
      expect(current).toMatch(/^root:checkout:[0-9a-f]{32}$/);
    }
    const detail = await h.service.get(current);
    expect(detail.parent_runtime_id).toMatch(/^root:checkout:/);
  });

  it('copies conversation and sender unless the request overrides them', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const copied = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(copied.runtime).toMatchObject({ conversation_id: 'conversation-1', sender_id: 'sender-1' });
    const overridden = await h.service.checkout({
      checkpoint_id: checkpoint.checkpoint_id,
      conversation_id: 'conversation-2',
      sender_id: 'sender-2',
    });
    expect(overridden.runtime).toMatchObject({ conversation_id: 'conversation-2', sender_id: 'sender-2' });
  });

  it('records the lineage and registers the checkpoint as the child head', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    const detail = await h.service.get(child.runtime.runtime_id);
    expect(detail).toMatchObject({
      parent_runtime_id: id,
      forked_from_checkpoint_id: checkpoint.checkpoint_id,
      head_checkpoint_id: checkpoint.checkpoint_id,
    });
    const childCheckpoint = await h.service.checkpoint({ runtime_id: child.runtime.runtime_id });
    expect(childCheckpoint.parent_checkpoint_id).toBe(checkpoint.checkpoint_id);
  });

  it('restores the checkpointed bytes, not writes made after the checkpoint, and leaves the source alone', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'notes.txt', 'before');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'notes.txt', 'after');
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(await h.read(child.runtime.runtime_id, 'notes.txt')).toBe('before');
    await h.write(child.runtime.runtime_id, 'notes.txt', 'child');
    expect(await h.read(id, 'notes.txt')).toBe('after');
  });

  it("the child starts clean with the parent's snapshot, so its first checkpoint reuses it", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    const calls = h.provider.calls.checkpoint;
    const childCheckpoint = await h.service.checkpoint({ runtime_id: child.runtime.runtime_id });
    expect(childCheckpoint.reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(calls);
  });

  it('a busy source runtime refuses checkout with SessionBusy naming the source', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const blocked = h.service.exec({ runtime_id: id, command: 'block' });
    await h.gate.started;
    const error = await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'session_busy', details: { runtime_id: id } });
    h.gate.release();
    await blocked;
  });

  it('a provider without snapshot checkout answers unsupported_backend and creates nothing', async () => {
    const h = createHarness();
    const id = await h.open(undefined, 'nosnap');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const creates = h.local.calls.create;
    const before = await h.service.list({});
    const error = await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'unsupported_backend', details: { provider: 'nosnap', capability: 'checkout' } });
    expect(h.local.calls.create).toBe(creates);
    expect((await h.service.list({})).runtimes).toEqual(before.runtimes);
  });

  it('checkout of an unknown checkpoint is checkpoint_not_found', async () => {
    const h = createHarness();
    const error = await rejectionOf(h.service.checkout({ checkpoint_id: `rtcp_${'0'.repeat(32)}` }));
    expect(error.code).toBe('checkpoint_not_found');
  });

  it('a failed provider checkout creates no runtime and leaves no backend behind', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const live = h.provider.liveBackendIds();
    h.provider.failNext('checkout');
    expect((await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id }))).code).toBe('provider_error');
    expect(h.provider.liveBackendIds()).toEqual(live);
    expect((await h.service.list({})).runtimes.map((r) => r.runtime_id)).toEqual([id]);
    await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
  });

  it('merges checkout metadata over the source runtime metadata', async () => {
    const h = createHarness();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', metadata: { team: 'a', tier: 1 } });
    const checkpoint = await h.service.checkpoint({ runtime_id: runtime.runtime_id });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id, metadata: { tier: 2 } });
    expect((await h.service.get(child.runtime.runtime_id)).metadata).toEqual({ team: 'a', tier: 2 });
  });

  it('fork (compatibility) is checkpoint then checkout', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'forked');
    const result = await h.service.fork({ parent_session_id: id, snapshot_name: 'fork-point', sender_id: 'other' });
    expect(result.parent.runtime_id).toBe(id);
    expect(result.child.runtime_id).toMatch(new RegExp(`^${id}:checkout:[0-9a-f]{32}$`));
    expect(result.child.sender_id).toBe('other');
    expect(await h.read(result.child.runtime_id, 'a.txt')).toBe('forked');
    const checkpoint = await h.service.getCheckpoint(result.checkpoint_id);
    expect(checkpoint).toMatchObject({ runtime_id: id, name: 'fork-point' });
  });
});
