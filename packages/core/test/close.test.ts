import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('close (the seed: release the backend; delete snapshots nothing else keeps)', () => {
  it('releases the backend and deletes the snapshots of its checkpoints', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'a.txt', 'b');
    await h.service.checkpoint({ runtime_id: id });
    const result = await h.service.close({ runtime_id: id });
    expect(result.runtime.status).toBe('closed');
    expect(result.released_backend).toBe(true);
    expect(result.deleted_snapshot_ids).toHaveLength(2);
    expect(h.provider.liveBackendIds()).toEqual([]);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('keeps the checkpoint records, so lineage never dangles', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    await h.service.close({ runtime_id: id });
    expect(await h.service.getCheckpoint(checkpoint.checkpoint_id)).toMatchObject({ runtime_id: id });
    expect((await h.service.get(child.runtime.runtime_id)).parent_runtime_id).toBe(id);
  });

  it('a snapshot shared with a live checkout child survives the parent closing and goes with the child', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'shared');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    const parentClose = await h.service.close({ runtime_id: id });
    expect(parentClose.deleted_snapshot_ids).toEqual([]);
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const childCheckpoint = await h.service.checkpoint({ runtime_id: child });
    expect(childCheckpoint.reused_backend_snapshot).toBe(true);
    const grandchild = await h.service.checkout({ checkpoint_id: childCheckpoint.checkpoint_id });
    expect(await h.read(grandchild.runtime.runtime_id, 'a.txt')).toBe('shared');
    await h.service.close({ runtime_id: grandchild.runtime.runtime_id });
    const childClose = await h.service.close({ runtime_id: child });
    expect(childClose.deleted_snapshot_ids).toHaveLength(1);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('keep_snapshots keeps them for later checkouts, and a later keep_snapshots:false releases them', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'kept');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const closed = await h.service.close({ runtime_id: id, keep_snapshots: true });
    expect(closed.deleted_snapshot_ids).toEqual([]);
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(await h.read(child.runtime.runtime_id, 'a.txt')).toBe('kept');
    await h.service.close({ runtime_id: child.runtime.runtime_id });
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const purge = await h.service.close({ runtime_id: id, keep_snapshots: false });
    expect(purge.deleted_snapshot_ids).toHaveLength(1);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('cascade closes checkout descendants first', async () => {
    const h = createHarness();
    const id = await h.open('tree');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    const childCheckpoint = await h.service.checkpoint({ runtime_id: child });
    const grandchild = (await h.service.checkout({ checkpoint_id: childCheckpoint.checkpoint_id })).runtime.runtime_id;
    const result = await h.service.close({ runtime_id: id, cascade: true });
    expect(result.closed_runtime_ids).toEqual([id, child, grandchild]);
    for (const runtime of [id, child, grandchild]) expect((await h.service.get(runtime)).runtime.status).toBe('closed');
    expect(h.provider.liveBackendIds()).toEqual([]);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('without cascade, checkout children stay open', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    await h.service.close({ runtime_id: id });
    expect((await h.service.get(child)).runtime.status).toBe('idle');
  });

  it('closing a closed runtime is a no-op', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.close({ runtime_id: id });
    const again = await h.service.close({ runtime_id: id });
    expect(again).toMatchObject({ released_backend: false, deleted_snapshot_ids: [], closed_runtime_ids: [] });
    expect(again.runtime.status).toBe('closed');
  });

  it('re-closing with keep_snapshots omitted keeps the earlier choice: kept snapshots stay kept', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.checkpoint({ runtime_id: id });
    await h.service.close({ runtime_id: id, keep_snapshots: true });
    const again = await h.service.close({ runtime_id: id });
    expect(again.deleted_snapshot_ids).toEqual([]);
    expect(h.provider.snapshotIds()).toHaveLength(1);
  });

  it('re-closing with an explicit keep_snapshots:true keeps what an earlier close failed to delete, from then on', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'rescued');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    h.provider.failNext('delete_snapshot');
    expect((await rejectionOf(h.service.close({ runtime_id: id }))).code).toBe('provider_error');
    const kept = await h.service.close({ runtime_id: id, keep_snapshots: true });
    expect(kept.deleted_snapshot_ids).toEqual([]);
    expect(h.provider.snapshotIds()).toHaveLength(1);
    expect((await h.service.close({ runtime_id: id })).deleted_snapshot_ids).toEqual([]);
    const child = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(await h.read(child.runtime.runtime_id, 'a.txt')).toBe('rescued');
  });

  it('closing a paused runtime deletes its pause snapshot', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.pause({ runtime_id: id });
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const result = await h.service.close({ runtime_id: id });
    expect(result.deleted_snapshot_ids).toHaveLength(1);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('a snapshot delete that failed during close is retried by the next close', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.service.checkpoint({ runtime_id: id });
    h.provider.failNext('delete_snapshot');
    expect((await rejectionOf(h.service.close({ runtime_id: id }))).code).toBe('provider_error');
    expect((await h.service.get(id)).runtime.status).toBe('closed');
    expect(h.provider.snapshotIds()).toHaveLength(1);
    const retry = await h.service.close({ runtime_id: id });
    expect(retry.deleted_snapshot_ids).toHaveLength(1);
    expect(h.provider.snapshotIds()).toEqual([]);
  });

  it('a failed backend release leaves the runtime open and bound', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    h.provider.failNext('release');
    expect((await rejectionOf(h.service.close({ runtime_id: id }))).code).toBe('provider_error');
    expect(await h.read(id, 'a.txt')).toBe('a');
    await h.service.close({ runtime_id: id });
  });

  it('operations on a closed runtime answer runtime_closed; re-opening its id does too', async () => {
    const h = createHarness();
    const id = await h.open('done');
    await h.service.close({ runtime_id: id });
    expect((await rejectionOf(h.service.exec({ runtime_id: id, command: 'true' }))).code).toBe('runtime_closed');
    expect((await rejectionOf(h.service.resume({ runtime_id: id }))).code).toBe('runtime_closed');
    expect((await rejectionOf(h.open('done'))).code).toBe('runtime_closed');
    // What to do instead: its checkpoints stay, and the id is spent.
    expect((await rejectionOf(h.service.exec({ runtime_id: id, command: 'true' }))).message).toBe(
      'runtime done is closed: its checkpoints stay in its log (those whose snapshot was kept can be checked out); to go on, check one out or open a runtime under another id',
    );
  });

  it('the snapshot a child backend came from is deleted when the child closes, even after the child made its own', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const child = (await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    await h.service.close({ runtime_id: id });
    await h.write(child, 'a.txt', 'new');
    await h.service.checkpoint({ runtime_id: child });
    expect(h.provider.snapshotIds()).toHaveLength(2);
    await h.service.close({ runtime_id: child });
    expect(h.provider.snapshotIds()).toEqual([]);
  });
});
