import { RuntimeService } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('pause and resume (the seed: snapshot then free the live sandbox; resume under the same id)', () => {
  it('pause snapshots, releases the live backend and marks the runtime paused', async () => {
    const h = createHarness();
    const id = await h.open('worker');
    await h.write(id, 'state.txt', 'kept');
    expect(h.provider.liveBackendIds()).toHaveLength(1);
    const result = await h.service.pause({ runtime_id: id, name: 'nightly' });
    expect(result.runtime).toMatchObject({ runtime_id: 'worker', status: 'paused' });
    expect(result.checkpoint_id).toMatch(/^rtcp_/);
    expect(h.provider.liveBackendIds()).toHaveLength(0);
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const detail = await h.service.get(id);
    expect(detail.paused_checkpoint_id).toBe(result.checkpoint_id);
    expect((await h.service.getCheckpoint(result.checkpoint_id)).kind).toBe('pause');
  });

  it('pause names the previous head as its parent', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const paused = await h.service.pause({ runtime_id: id });
    expect(paused.parent_checkpoint_id).toBe(checkpoint.checkpoint_id);
  });

  it('resume restores a paused runtime under the same id with its files', async () => {
    const h = createHarness();
    const id = await h.open('worker');
    await h.write(id, 'state.txt', 'kept');
    await h.service.pause({ runtime_id: id });
    const resumed = await h.service.resume({ runtime_id: id });
    expect(resumed.runtime).toMatchObject({ runtime_id: 'worker', status: 'idle' });
    expect(await h.read(id, 'state.txt')).toBe('kept');
    expect(h.provider.liveBackendIds()).toHaveLength(1);
    expect((await h.service.get(id)).paused_checkpoint_id).toBeNull();
  });

  it('pause of a clean runtime reuses its snapshot instead of making another, and says so as checkpoint does', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.checkpoint({ runtime_id: id });
    const calls = h.provider.calls.checkpoint;
    expect((await h.service.pause({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(calls);
    await h.service.resume({ runtime_id: id });
    await h.write(id, 'a.txt', 'b');
    expect((await h.service.pause({ runtime_id: id })).reused_backend_snapshot).toBe(false);
  });

  it('data operations and a second pause on a paused runtime answer runtime_paused', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.pause({ runtime_id: id });
    expect((await rejectionOf(h.service.pause({ runtime_id: id }))).code).toBe('runtime_paused');
    expect((await rejectionOf(h.service.exec({ runtime_id: id, command: 'true' }))).code).toBe('runtime_paused');
    expect((await rejectionOf(h.read(id, 'a.txt'))).code).toBe('runtime_paused');
  });

  it('resume of a runtime that is not paused answers runtime_not_paused', async () => {
    const h = createHarness();
    const id = await h.open();
    expect((await rejectionOf(h.service.resume({ runtime_id: id }))).code).toBe('runtime_not_paused');
  });

  it('pause on a provider without snapshots is refused before anything is released', async () => {
    const h = createHarness();
    const id = await h.open(undefined, 'nosnap');
    await h.write(id, 'a.txt', 'a');
    const error = await rejectionOf(h.service.pause({ runtime_id: id }));
    expect(error).toMatchObject({ code: 'unsupported_backend', details: { capability: 'pause' } });
    expect(h.local.calls.release).toBe(0);
    expect((await h.service.get(id)).runtime.status).toBe('idle');
    expect(await h.read(id, 'a.txt')).toBe('a');
  });

  it('a pause whose release fails leaves the runtime idle, bound and usable; its snapshot stays a point in the log', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    h.provider.failNext('release');
    const error = await rejectionOf(h.service.pause({ runtime_id: id }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(/stays idle/);
    const detail = await h.service.get(id);
    expect(detail).toMatchObject({ runtime: { status: 'idle' }, paused_checkpoint_id: null });
    expect(h.provider.snapshotIds()).toHaveLength(1);
    expect((await h.service.getCheckpoint(detail.head_checkpoint_id!)).has_provider_snapshot).toBe(true);
    expect(await h.read(id, 'a.txt')).toBe('a');
    await h.service.pause({ runtime_id: id });
    expect((await h.service.get(id)).runtime.status).toBe('paused');
    expect(h.provider.snapshotIds()).toHaveLength(1);
  });

  it('a pause whose release fails records its snapshot as an ordinary checkpoint, not a phantom pause head', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    h.provider.failNext('release');
    expect((await rejectionOf(h.service.pause({ runtime_id: id, name: 'before-lunch' }))).code).toBe('provider_error');
    const { head_checkpoint_id: head } = await h.service.get(id);
    expect(await h.service.getCheckpoint(head!)).toMatchObject({ kind: 'checkpoint', name: 'before-lunch', has_provider_snapshot: true });
    const { checkpoints } = await h.service.listCheckpoints(id, {});
    expect(checkpoints.map((checkpoint) => checkpoint.kind)).toEqual(['checkpoint']);
    const retried = await h.service.pause({ runtime_id: id });
    expect(retried.parent_checkpoint_id).toBe(head);
    expect((await h.service.getCheckpoint(retried.checkpoint_id)).kind).toBe('pause');
  });

  it('a pause interrupted after its backend was released completes on next use: nothing written before it is lost', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'only copy');
    // A crash between the release and the final commit: the runtime is recorded mid-pause.
    const session = (await h.store.getSession(id))!;
    await h.service.pause({ runtime_id: id });
    const paused = (await h.store.getSession(id))!;
    await h.store.commit({ sessions: [{ ...session, headCheckpointId: paused.headCheckpointId, pausedCheckpointId: paused.pausedCheckpointId }] });
    const restarted = new RuntimeService({ store: h.store, providers: [h.provider], defaultProvider: 'memory' });
    expect((await rejectionOf(restarted.exec({ runtime_id: id, command: 'true' }))).code).toBe('runtime_paused');
    await restarted.resume({ runtime_id: id });
    const { content_base64 } = await restarted.readFile({ runtime_id: id, path: 'a.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('only copy');
  });

  it('a resume whose provider checkout fails leaves the runtime paused and resumable', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.pause({ runtime_id: id });
    h.provider.failNext('checkout');
    expect((await rejectionOf(h.service.resume({ runtime_id: id }))).code).toBe('provider_error');
    expect((await h.service.get(id)).runtime.status).toBe('paused');
    expect(h.provider.liveBackendIds()).toEqual([]);
    await h.service.resume({ runtime_id: id });
    expect(await h.read(id, 'a.txt')).toBe('a');
  });

  it('a resumed runtime starts clean from the pause snapshot: its next checkpoint reuses it', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.pause({ runtime_id: id });
    await h.service.resume({ runtime_id: id });
    const calls = h.provider.calls.checkpoint;
    expect((await h.service.checkpoint({ runtime_id: id })).reused_backend_snapshot).toBe(true);
    expect(h.provider.calls.checkpoint).toBe(calls);
  });

  it('pause and resume can repeat: the id never changes and writes between survive', async () => {
    const h = createHarness();
    const id = await h.open('loop');
    for (let round = 0; round < 3; round += 1) {
      await h.write(id, 'round.txt', String(round));
      await h.service.pause({ runtime_id: id });
      const resumed = await h.service.resume({ runtime_id: id });
      expect(resumed.runtime.runtime_id).toBe('loop');
      expect(await h.read(id, 'round.txt')).toBe(String(round));
    }
  });

  it('pausing a checkout child deletes the snapshot its released backend came from once nothing keeps it', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    await h.service.close({ runtime_id: id });
    await h.write(child, 'a.txt', 'new');
    await h.service.pause({ runtime_id: child });
    expect(h.provider.snapshotIds()).toHaveLength(1);
    await h.service.resume({ runtime_id: child });
    expect(await h.read(child, 'a.txt')).toBe('new');
  });
});
