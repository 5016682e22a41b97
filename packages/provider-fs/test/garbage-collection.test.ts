import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from '../src/snapshot-store';
import { blobFilesIn, useTemporaryDirectories } from './fs-fixture';

const meta = { labels: {} };

describe('snapshot garbage collection', () => {
  const temporary = useTemporaryDirectories();

  async function setup() {
    const dir = await realpath(await temporary('gc'));
    await mkdir(join(dir, 'ws'));
    return { dir, workspace: join(dir, 'ws'), blobs: join(dir, 'snapshots', 'blobs'), store: new SnapshotStore(join(dir, 'snapshots'), { racyWindowNs: 0n }) };
  }

  it('deleting a snapshot removes the blobs only it named and keeps those another snapshot names', async () => {
    const { workspace, blobs, store } = await setup();
    await writeFile(join(workspace, 'shared'), 'in both snapshots');
    await writeFile(join(workspace, 'old'), 'only in the first');
    const first = await store.checkpoint(workspace, 'ws', meta);
    await writeFile(join(workspace, 'old'), 'only in the second');
    const second = await store.checkpoint(workspace, 'ws', meta);
    expect(await blobFilesIn(blobs)).toHaveLength(3);
    expect(await store.deleteSnapshot(first.snapshotId)).toBe(true);
    expect(await blobFilesIn(blobs)).toHaveLength(2);
    const target = join(workspace, '..', 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(second.snapshotId))!, target);
    expect(await store.deleteSnapshot(second.snapshotId)).toBe(true);
    expect(await blobFilesIn(blobs)).toEqual([]);
    expect(await store.deleteSnapshot(second.snapshotId)).toBe(false);
  });

  it('after a workspace\'s only snapshot is deleted, its next checkpoint stores its unchanged files again (the stat index forgets removed blobs)', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'kept'), 'unchanged between the checkpoints');
    const first = await store.checkpoint(workspace, 'ws', meta);
    await new Promise((resolve) => setTimeout(resolve, 20)); // Past the racy window's edge (0 here): the index is trusted.
    expect(await store.deleteSnapshot(first.snapshotId)).toBe(true);
    const second = await store.checkpoint(workspace, 'ws', meta);
    expect(second.reusedFiles).toBe(0);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(second.snapshotId))!, target);
  });

  it('garbage collection removes what killed writers left in manifests/ and index/', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'a'), 'a');
    const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
    const leftovers = [join(dir, 'snapshots', 'manifests', '.0123456789abcdef.tmp'), join(dir, 'snapshots', 'index', '.fedcba9876543210.tmp')];
    for (const leftover of leftovers) await writeFile(leftover, 'half');
    await store.deleteSnapshot(snapshotId);
    expect(await readdir(join(dir, 'snapshots', 'manifests'))).toEqual([]);
    expect((await readdir(join(dir, 'snapshots', 'index'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('never deletes a blob a checkpoint running at the same time reuses', async () => {
    const { dir, workspace, store } = await setup();
    for (let i = 0; i < 300; i++) await writeFile(join(workspace, `f${i}`), `content ${i}`);
    const old = await store.checkpoint(workspace, 'ws', meta);
    // Another workspace with the same content: its checkpoint finds every blob already stored.
    const twin = join(dir, 'twin');
    await mkdir(twin);
    for (let i = 0; i < 300; i++) await writeFile(join(twin, `f${i}`), `content ${i}`);
    const [running] = await Promise.all([store.checkpoint(twin, 'twin', meta), store.deleteSnapshot(old.snapshotId)]);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(running.snapshotId))!, target);
  });
});
