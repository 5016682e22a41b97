import { randomBytes } from 'node:crypto';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobCorruptedError, BlobStore, hashOf } from '../src/blob-store';
import { blobFilesIn, useTemporaryDirectories } from './fs-fixture';

async function putFile(store: BlobStore, path: string) {
  const handle = await open(path, 'r');
  try {
    return await store.put(handle);
  } finally {
    await handle.close();
  }
}

async function flipByte(path: string, at: number) {
  const content = await readFile(path);
  content[at] = (content[at] ?? 0) ^ 0xff;
  await writeFile(path, content);
}

describe('blob store', () => {
  const temporary = useTemporaryDirectories();

  it('stores each distinct content once, under its sha256', async () => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'));
    await writeFile(join(dir, 'a'), 'same content');
    await writeFile(join(dir, 'b'), 'same content');
    await writeFile(join(dir, 'c'), 'other content');
    const a = await putFile(store, join(dir, 'a'));
    const b = await putFile(store, join(dir, 'b'));
    const c = await putFile(store, join(dir, 'c'));
    expect(a.hash).toBe(await hashOf(join(dir, 'a')));
    expect(b.hash).toBe(a.hash);
    expect(c.hash).not.toBe(a.hash);
    expect(await blobFilesIn(join(dir, 'blobs'))).toEqual([`${a.hash.slice(0, 2)}/${a.hash.slice(2)}`, `${c.hash.slice(0, 2)}/${c.hash.slice(2)}`].sort());
  });

  it('compresses a blob where it pays and stores incompressible content raw', async () => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'));
    await writeFile(join(dir, 'text'), 'line of text\n'.repeat(10_000));
    await writeFile(join(dir, 'random'), randomBytes(64 * 1024));
    const text = await putFile(store, join(dir, 'text'));
    const random = await putFile(store, join(dir, 'random'));
    expect(await store.pathOf(text.hash)).toMatch(/\.gz$/);
    expect(await store.pathOf(random.hash)).not.toMatch(/\.gz$/);
    for (const name of ['text', 'random']) {
      const { hash } = name === 'text' ? text : random;
      await store.copyTo(hash, join(dir, `${name}.out`), 0o600);
      expect(await readFile(join(dir, `${name}.out`))).toEqual(await readFile(join(dir, name)));
    }
  });

  it('streams contents larger than it reads whole: random bytes stored raw, text compressed, both restored byte-exact', async () => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'));
    await writeFile(join(dir, 'random'), randomBytes(6 * 1024 * 1024));
    await writeFile(join(dir, 'text'), 'a line of text\n'.repeat(400_000));
    const random = await putFile(store, join(dir, 'random'));
    const text = await putFile(store, join(dir, 'text'));
    expect(random.size).toBe(6 * 1024 * 1024);
    expect(await store.pathOf(random.hash)).not.toMatch(/\.gz$/);
    expect(await store.pathOf(text.hash)).toMatch(/\.gz$/);
    for (const [name, { hash }] of [['random', random], ['text', text]] as const) {
      await store.copyTo(hash, join(dir, `${name}.out`), 0o640);
      // Buffer.equals: a deep equality of 6 MiB element by element takes minutes.
      expect((await readFile(join(dir, `${name}.out`))).equals(await readFile(join(dir, name)))).toBe(true);
    }
    expect(await blobFilesIn(join(dir, 'blobs'))).toHaveLength(2);
  });

  it('stores raw when compression is off', async () => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'), { compress: false });
    await writeFile(join(dir, 'text'), 'line of text\n'.repeat(10_000));
    const { hash } = await putFile(store, join(dir, 'text'));
    expect(await store.pathOf(hash)).not.toMatch(/\.gz$/);
  });

  it.each([
    ['raw', randomBytes(64 * 1024)],
    ['gzip', Buffer.from('line of text\n'.repeat(10_000))],
  ])('refuses a %s blob with a flipped byte, leaving no target file', async (_encoding, content) => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'));
    await writeFile(join(dir, 'source'), content);
    const { hash } = await putFile(store, join(dir, 'source'));
    await flipByte((await store.pathOf(hash)) as string, 100);
    const copied = store.copyTo(hash, join(dir, 'out'), 0o600);
    await expect(copied).rejects.toBeInstanceOf(BlobCorruptedError);
    await expect(readFile(join(dir, 'out'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a missing blob', async () => {
    const dir = await temporary('blobs');
    const store = new BlobStore(join(dir, 'blobs'));
    await expect(store.copyTo('0'.repeat(64), join(dir, 'out'), 0o600)).rejects.toMatchObject({ actual: 'missing' });
  });
});
