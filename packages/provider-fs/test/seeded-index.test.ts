import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from '../src/snapshot-store';
import { useTemporaryDirectories } from './fs-fixture';

const meta = { labels: {} };

describe('the stat index of a checked-out workspace', () => {
  const temporary = useTemporaryDirectories();

  async function checkedOut() {
    const dir = await realpath(await temporary('seeded'));
    const source = join(dir, 'source');
    await mkdir(join(source, 'src'), { recursive: true });
    for (let i = 0; i < 20; i++) await writeFile(join(source, 'src', `f${i}.txt`), `file ${i}\n`);
    // The default racy window (1 s): a checkout right after the checkpoint must still be trusted.
    const store = new SnapshotStore(join(dir, 'snapshots'));
    const { snapshotId } = await store.checkpoint(source, 'source', meta);
    const target = join(dir, 'copy');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target, 'copy');
    return { store, target };
  }

  it('is seeded by the checkout: its first checkpoint reads none of the files it materialised', async () => {
    const { store, target } = await checkedOut();
    const first = await store.checkpoint(target, 'copy', meta);
    expect(first).toMatchObject({ hashedFiles: 0, reusedFiles: 20 });
  });

  it('still notices a file changed after the checkout, even to the same size', async () => {
    const { store, target } = await checkedOut();
    await writeFile(join(target, 'src', 'f3.txt'), 'FILE 3\n');
    const first = await store.checkpoint(target, 'copy', meta);
    expect(first).toMatchObject({ hashedFiles: 1, reusedFiles: 19 });
    const out = join(target, '..', 'out');
    await mkdir(out);
    await store.checkout((await store.manifest(first.snapshotId))!, out);
    expect(await readFile(join(out, 'src', 'f3.txt'), 'utf8')).toBe('FILE 3\n');
  });
});
