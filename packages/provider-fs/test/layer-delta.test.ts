import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerDelta } from '../src/layers/layer-delta';
import { useTemporaryDirectories } from './fs-fixture';

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('layerDelta', () => {
  const temporary = useTemporaryDirectories();

  it('names what the layer changed, and as removed what a lower layer holds in its directories that the new tree lacks', async () => {
    const [layer, top, bottom, next] = [await temporary('layer'), await temporary('top'), await temporary('bottom'), await temporary('next')];
    await mkdir(join(layer, 'src'));
    await writeFile(join(layer, 'src/new.txt'), 'new');
    await mkdir(join(top, 'src'));
    await writeFile(join(top, 'src/kept.txt'), 'kept');
    await mkdir(join(bottom, 'src'));
    await writeFile(join(bottom, 'src/gone.txt'), 'old');
    await writeFile(join(bottom, 'elsewhere.txt'), 'not below a directory of the layer');
    await mkdir(join(next, 'src'));
    await writeFile(join(next, 'src/new.txt'), 'new');
    await writeFile(join(next, 'src/kept.txt'), 'kept');
    await writeFile(join(next, 'elsewhere.txt'), 'not below a directory of the layer');

    const delta = await layerDelta(layer, { newTree: next, lowers: [top, bottom] });

    expect(delta.changed.map(({ path, kind }) => `${kind} ${path}`).sort()).toEqual(['directory src', 'file src/new.txt']);
    expect(delta.removed).toEqual(['src/gone.txt']);
  });

  it("hashes every file of the layer, an empty one as the empty content, and records each in the layer's index", async () => {
    const layer = await temporary('layer');
    await writeFile(join(layer, 'empty'), '');
    await writeFile(join(layer, 'full'), 'content');
    const sealed: string[] = [];

    const delta = await layerDelta(layer, null, { add: (path, _info, hash) => void sealed.push(`${path} ${hash}`) });

    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(delta.changed.map(({ path, size, hash }) => `${path} ${size} ${hash}`).sort()).toEqual([`empty 0 ${sha256('')}`, `full 7 ${sha256('content')}`]);
    expect(sealed.sort()).toEqual([`empty ${sha256('')}`, `full ${sha256('content')}`]);
  });

  it('never lists a lower layer through a link: a directory of the layer that was a link below removes nothing the link names', async () => {
    const [layer, lower, next, elsewhere] = [await temporary('layer'), await temporary('lower'), await temporary('next'), await temporary('elsewhere')];
    await writeFile(join(elsewhere, 'host-file'), 'not in any layer');
    await symlink(elsewhere, join(lower, 'escape'));
    await mkdir(join(layer, 'escape'));
    await mkdir(join(next, 'escape'));

    const delta = await layerDelta(layer, { newTree: next, lowers: [lower] });

    expect(delta.removed).toEqual([]);
  });

  it('closes every directory it opened when a tree cannot be opened', async () => {
    const [layer, lower] = [await temporary('layer'), await temporary('lower')];
    await mkdir(join(layer, 'src'));
    const before = openDescriptors();

    await expect(layerDelta(layer, { newTree: join(lower, 'missing'), lowers: [lower] })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(layerDelta(layer, { newTree: lower, lowers: [lower, join(lower, 'missing')] })).rejects.toMatchObject({ code: 'ENOENT' });

    expect(openDescriptors()).toBe(before);
  });
});
