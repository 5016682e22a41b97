import { lstat, mkdir, readdir, readFile, realpath, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_LAYER, LayerStore } from '../src/layers/layer-store';
import { isMountPoint } from '../src/layers/mount-table';
import { mountOverlay, mountReadOnlyChain, unmount } from '../src/layers/overlay-mount';
import { probeOverlay, type OverlaySupport } from '../src/layers/overlay-probe';
import { useTemporaryDirectories } from './fs-fixture';

const asRoot = process.getuid?.() === 0;
let support: OverlaySupport = { available: false, reason: 'not probed' };

/** A tree as `find` lists it, with each file's content: what two views must agree on. */
async function treeOf(root: string): Promise<string[]> {
  const lines: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    for (const name of (await readdir(join(root, relative))).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const info = await lstat(join(root, path));
      if (info.isDirectory()) {
        lines.push(`${path}/`);
        await visit(path);
      } else lines.push(`${path} = ${await readFile(join(root, path), 'utf8')}`);
    }
  };
  await visit('');
  return lines;
}

describe('overlay probe', () => {
  const temporary = useTemporaryDirectories();

  it(asRoot ? 'finds overlayfs usable as root on Linux' : 'names why overlayfs is not usable without root', async () => {
    const probed = await probeOverlay(await temporary('probe'));
    if (asRoot) expect(probed).toEqual({ available: true });
    else expect(probed).toEqual({ available: false, reason: 'mounting overlayfs needs root' });
  });
});

describe.skipIf(!asRoot)('layers: a workspace as an overlay mount, sealed by rename', () => {
  const temporary = useTemporaryDirectories();
  const mounted: string[] = [];
  beforeAll(async () => {
    support = await probeOverlay(await realpath(await temporary('probe')));
  });
  afterEach(async () => {
    for (const target of mounted.splice(0).reverse()) await unmount(target, { lazy: true });
  });

  async function setup() {
    if (!support.available) throw new Error(`overlayfs is not usable here: ${support.reason}`);
    const dir = await realpath(await temporary('layers'));
    const layers = new LayerStore(dir);
    await layers.ensureEmpty();
    /** A live workspace over `chain`: its upper and work directories, and the mount at `target`. */
    const live = async (name: string, chain: string[]) => {
      for (const part of ['upper', 'work', 'merged']) await mkdir(join(dir, 'live', name, part), { recursive: true });
      const target = join(dir, 'live', name, 'merged');
      await mountOverlay({ cwd: dir, lowers: chain.map((id) => layers.rootOf(id)), upper: join('live', name, 'upper'), work: join('live', name, 'work'), target });
      mounted.push(target);
      return target;
    };
    /** Seals a live workspace: unmount, rename its upper into a layer over `parent`, fresh upper and work. */
    const seal = async (name: string, target: string, parent: string) => {
      await unmount(target);
      mounted.splice(mounted.indexOf(target), 1);
      const record = await layers.sealByRename(join(dir, 'live', name, 'upper'), parent);
      await rm(join(dir, 'live', name), { recursive: true, force: true });
      return record;
    };
    return { dir, layers, live, seal };
  }

  it('a checkout of a sealed chain is the tree that was sealed: writes, deletions and a directory replaced whole', async () => {
    const { layers, live, seal } = await setup();
    const first = await live('a', [EMPTY_LAYER]);
    await mkdir(join(first, 'src/deep'), { recursive: true });
    await writeFile(join(first, 'src/a.txt'), 'alpha');
    await writeFile(join(first, 'src/deep/b.txt'), 'beta');
    await writeFile(join(first, 'gone.txt'), 'soon deleted');
    const layer1 = await seal('a', first, EMPTY_LAYER);

    const second = await live('a', await layers.chain(layer1.id));
    await writeFile(join(second, 'src/a.txt'), 'alpha, changed');
    await rm(join(second, 'gone.txt'));
    await rm(join(second, 'src/deep'), { recursive: true });
    await mkdir(join(second, 'src/deep'));
    await writeFile(join(second, 'src/deep/c.txt'), 'gamma');
    const expected = await treeOf(second);
    const layer2 = await seal('a', second, layer1.id);
    expect(layer2.depth).toBe(2);
    expect(await layers.chain(layer2.id)).toEqual([layer2.id, layer1.id, EMPTY_LAYER]);

    const checkout = await live('b', await layers.chain(layer2.id));
    expect(await treeOf(checkout)).toEqual(expected);
    expect(expected).toEqual(['src/', 'src/a.txt = alpha, changed', 'src/deep/', 'src/deep/c.txt = gamma']);
  });

  it('two checkouts of one chain share its layers and never see each other\'s writes; the sealed layers never change', async () => {
    const { layers, live, seal } = await setup();
    const origin = await live('origin', [EMPTY_LAYER]);
    await writeFile(join(origin, 'shared.txt'), 'sealed');
    const layer = await seal('origin', origin, EMPTY_LAYER);
    const chain = await layers.chain(layer.id);
    const [one, two] = [await live('one', chain), await live('two', chain)];
    await writeFile(join(one, 'shared.txt'), 'one wrote this');
    await rm(join(two, 'shared.txt'));
    expect(await readFile(join(one, 'shared.txt'), 'utf8')).toBe('one wrote this');
    expect(await readdir(two)).toEqual([]);
    expect(await readFile(join(layers.absoluteRootOf(layer.id), 'shared.txt'), 'utf8')).toBe('sealed');
  });

  it('a read-only mount of a chain shows the snapshot as checkouts see it', async () => {
    const { dir, layers, live, seal } = await setup();
    const origin = await live('origin', [EMPTY_LAYER]);
    await mkdir(join(origin, 'd'));
    await writeFile(join(origin, 'd/kept'), 'kept');
    await writeFile(join(origin, 'd/dropped'), 'dropped');
    const first = await seal('origin', origin, EMPTY_LAYER);
    const again = await live('origin', await layers.chain(first.id));
    await rm(join(again, 'd/dropped'));
    const second = await seal('origin', again, first.id);
    const view = join(dir, 'view');
    await mkdir(view);
    await mountReadOnlyChain(dir, (await layers.chain(second.id)).map((id) => layers.rootOf(id)), view);
    mounted.push(view);
    expect(await isMountPoint(view)).toBe(true);
    expect(await treeOf(view)).toEqual(['d/', 'd/kept = kept']);
    await expect(writeFile(join(view, 'x'), 'x')).rejects.toMatchObject({ code: 'EROFS' });
    await unmount(view);
    mounted.pop();
    expect(await isMountPoint(view)).toBe(false);
    await rmdir(view);
  });

  it('a mount that cannot be made fails with one line and no host path', async () => {
    const { dir } = await setup();
    const error = await mountReadOnlyChain(dir, ['layers/missing/root', 'layers/empty/root'], join(dir, 'nowhere')).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^could not mount a layered workspace \(.+\)$/);
    expect((error as Error).message).not.toContain(dir);
  });
});
