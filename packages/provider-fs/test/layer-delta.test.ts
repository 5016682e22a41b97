import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerDelta } from '../src/layers/layer-delta';
import { useTemporaryDirectories } from './fs-fixture';

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('layerDelta', () => {
  const temporary = useTemporaryDirectories();

  it('names what the layer changed and what it removed from the base tree', async () => {
    const [layer, base, next] = [await temporary('layer'), await temporary('base'), await temporary('next')];
    await mkdir(join(layer, 'src'));
    await writeFile(join(layer, 'src/new.txt'), 'new');
    await mkdir(join(base, 'src'));
    await writeFile(join(base, 'src/gone.txt'), 'old');
    await mkdir(join(next, 'src'));
    await writeFile(join(next, 'src/new.txt'), 'new');

    const delta = await layerDelta(layer, { newView: next, baseView: base });

    expect(delta.changed.map(({ path, kind }) => `${kind} ${path}`).sort()).toEqual(['directory src', 'file src/new.txt']);
    expect(delta.removed).toEqual(['src/gone.txt']);
  });

  it('closes every directory it opened when a view cannot be opened', async () => {
    const [layer, base] = [await temporary('layer'), await temporary('base')];
    await mkdir(join(layer, 'src'));
    const before = openDescriptors();

    await expect(layerDelta(layer, { newView: join(base, 'missing'), baseView: base })).rejects.toMatchObject({ code: 'ENOENT' });

    expect(openDescriptors()).toBe(before);
  });
});
