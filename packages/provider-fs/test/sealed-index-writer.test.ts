import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SealedIndexWriter, StatIndex } from '../src/stat-index';
import { useTemporaryDirectories } from './fs-fixture';

const stamp = (at: number) => ({ size: BigInt(at), mtimeNs: 1n, ctimeNs: 2n, ino: BigInt(1000 + at) });
const hashOf = (at: number) => at.toString(16).padStart(64, '0');

describe('SealedIndexWriter', () => {
  const temporary = useTemporaryDirectories();

  it('writes a sealed layer\'s index as its files are added, a slice at a time: the index then trusts each of them', async () => {
    const directory = await temporary('index');
    const path = join(directory, 'index.json');
    const writer = new SealedIndexWriter(path);
    const files = 5_001; // more than one slice written out
    for (let at = 0; at < files; at++) writer.add(`d/${at}\udcff`, stamp(at), hashOf(at));
    await writer.finish();

    const index = await StatIndex.load(path);
    for (const at of [0, 1999, 2000, 5000]) expect(index.known(`d/${at}\udcff`, stamp(at))).toBe(hashOf(at));
    expect(index.known('d/0\udcff', { ...stamp(0), ctimeNs: 3n }), 'a copy up changes the ctime').toBeNull();
    expect(await readdir(directory)).toEqual(['index.json']);
  });

  it('leaves nothing behind when aborted', async () => {
    const directory = await temporary('index');
    const writer = new SealedIndexWriter(join(directory, 'index.json'));
    writer.add('a', stamp(1), hashOf(1));
    await writer.abort();
    expect(await readdir(directory)).toEqual([]);
  });
});
