import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('delete-snapshot (the seed: delete the provider snapshot a checkpoint references)', () => {
  it('deletes the snapshot at the provider and keeps the checkpoint record', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const checkpoint = await h.service.checkpoint({ runtime_id: id, name: 'named' });
    const snapshot = h.provider.snapshotIds()[0];
    const result = await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    expect(result).toMatchObject({
      checkpoint_id: checkpoint.checkpoint_id,
      runtime_id: id,
      provider: 'memory',
      provider_snapshot_id: snapshot,
      provider_snapshot_names: ['named'],
      deleted_provider_snapshot: true,
      cleared_checkpoint_ids: [checkpoint.checkpoint_id],
    });
    expect(h.provider.snapshotIds()).toEqual([]);
    expect(await h.service.getCheckpoint(checkpoint.checkpoint_id)).toMatchObject({ has_provider_snapshot: false });
  });

  it('repeating it is a no-op that reports nothing deleted', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    const again = await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    expect(again).toMatchObject({ provider: 'memory', provider_snapshot_id: null, deleted_provider_snapshot: false });
  });

  it('a shared snapshot is cleared from every checkpoint record that references it', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const first = await h.service.checkpoint({ runtime_id: id });
    const second = await h.service.checkpoint({ runtime_id: id });
    expect(second.reused_backend_snapshot).toBe(true);
    const result = await h.service.deleteCheckpointSnapshot({ checkpoint_id: second.checkpoint_id });
    expect(result.cleared_checkpoint_ids).toEqual([first.checkpoint_id, second.checkpoint_id].sort());
    expect((await h.service.getCheckpoint(first.checkpoint_id)).has_provider_snapshot).toBe(false);
  });

  it("checkout from a checkpoint whose snapshot was deleted answers checkpoint_snapshot_deleted", async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    const error = await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'checkpoint_snapshot_deleted', details: { checkpoint_id: checkpoint.checkpoint_id } });
  });

  it("after a delete the source backend's next checkpoint makes a fresh snapshot", async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    const next = await h.service.checkpoint({ runtime_id: id });
    expect(next.reused_backend_snapshot).toBe(false);
    expect(h.provider.snapshotIds()).toHaveLength(1);
    await h.service.checkout({ checkpoint_id: next.checkpoint_id });
  });

  it("is refused with snapshot_in_use while a paused runtime's resume point needs the snapshot", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.pause({ runtime_id: id });
    const error = await rejectionOf(h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'snapshot_in_use', details: { runtime_ids: [id] } });
    expect(h.provider.snapshotIds()).toHaveLength(1);
    await h.service.resume({ runtime_id: id });
    expect(await h.read(id, 'a.txt')).toBe('a');
  });

  it('is refused while a live backend created from the snapshot exists, and allowed once it is closed', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    const error = await rejectionOf(h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'snapshot_in_use', details: { runtime_ids: [child.runtime.runtime_id] } });
    await h.service.close({ runtime_id: child.runtime.runtime_id });
    const result = await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    expect(result.deleted_provider_snapshot).toBe(true);
  });

  it('a checkpoint with no provider snapshot (local) reports nothing to delete', async () => {
    const h = createHarness();
    const id = await h.open(undefined, 'nosnap');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const result = await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    expect(result).toMatchObject({ provider: 'nosnap', provider_snapshot_id: null, deleted_provider_snapshot: false });
  });

  it('a snapshot already gone at the provider counts as done and is cleared from the records', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.provider.deleteSnapshot!(h.provider.snapshotIds()[0]!);
    const result = await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    expect(result).toMatchObject({ deleted_provider_snapshot: false, cleared_checkpoint_ids: [checkpoint.checkpoint_id] });
    expect((await h.service.getCheckpoint(checkpoint.checkpoint_id)).has_provider_snapshot).toBe(false);
  });

  it('unknown checkpoint ids answer checkpoint_not_found', async () => {
    const h = createHarness();
    const error = await rejectionOf(h.service.deleteCheckpointSnapshot({ checkpoint_id: `rtcp_${'a'.repeat(32)}` }));
    expect(error.code).toBe('checkpoint_not_found');
  });
});
