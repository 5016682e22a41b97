import { closeSync, type BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsPathOf, nameFromBytes, type ManifestEntry } from '@runtimectl/provider';
import { openWalkedFile, walkWorkspaceTree } from '@runtimectl/provider-local';
import { hashOfDescriptor } from '../blob-batch';
import type { ContentHash } from '../blob-store';

/** A file of a sealed layer, hashed: what the stat index records of it. */
export interface SealedFile {
  path: string;
  info: BigIntStats;
  hash: ContentHash;
}

/** What a sealed layer changed (a `ManifestDelta` without its base), and its files as hashed. */
export interface LayerDelta {
  removed: string[];
  changed: ManifestEntry[];
  files: SealedFile[];
}

/**
 * What the sealed layer at `layerRoot` changes in the tree below it: the layer is the change, so
 * this reads only the layer (its files hashed from it: a sealed layer never changes), whatever
 * the workspace's size. Its directories, files and links are the changed entries. A path gone
 * is a name the base chain's tree (`baseView`; no views when the base is the empty chain) shows
 * in one of the layer's directories and the new chain's tree (`newView`) does not: that is a whiteout, and
 * also what an opaque directory hides, with no extended attribute read. A FIFO, socket or device
 * in the layer (never in a manifest) removes what was at its path.
 */
export async function layerDelta(layerRoot: string, views: { newView: string; baseView: string } | null): Promise<LayerDelta> {
  const delta: LayerDelta = { removed: [], changed: [], files: [] };
  const directories = [''];
  await walkWorkspaceTree(layerRoot, {
    directory: ({ path, mode }) => {
      directories.push(path);
      delta.changed.push({ path, kind: 'directory', mode, size: 0, target: null, hash: null });
    },
    symlink: ({ path, mode }, target) => void delta.changed.push({ path, kind: 'symlink', mode, size: Buffer.byteLength(target), target, hash: null }),
    special: ({ path }) => void delta.removed.push(path),
    file: async (entry) => {
      const { fd, size } = openWalkedFile(entry);
      let hash: ContentHash;
      try {
        hash = (await hashOfDescriptor(fd)).hash;
      } finally {
        closeSync(fd);
      }
      delta.files.push({ path: entry.path, info: entry.info, hash });
      delta.changed.push({ path: entry.path, kind: 'file', mode: entry.mode, size, target: null, hash });
    },
  });
  if (views !== null) {
    // A directory of the layer may have been a symlink (or a file) in the base tree, or lie under
    // one: never listed there, so a link a command made cannot make the walk read what it names.
    const notInBase = new Set<string>();
    for (const directory of directories) {
      const parent = directory.includes('/') ? directory.slice(0, directory.lastIndexOf('/')) : '';
      if (directory !== '' && (notInBase.has(parent) || !(await isDirectoryIn(views.baseView, directory)))) {
        notInBase.add(directory);
        continue;
      }
      const kept = new Set(await namesIn(views.newView, directory));
      for (const name of await namesIn(views.baseView, directory)) {
        if (!kept.has(name)) delta.removed.push(directory === '' ? name : `${directory}/${name}`);
      }
    }
  }
  return delta;
}

/** Whether `directory` is a directory (not a link to one) in the tree at `root`; its parents are known to be. */
async function isDirectoryIn(root: string, directory: string): Promise<boolean> {
  const info = await lstat(fsPathOf(join(root, directory))).catch(() => null);
  return info !== null && info.isDirectory();
}

/** The names in `directory` (workspace-relative) of the tree at `root`, as manifests spell them; none when it is not a directory there. */
async function namesIn(root: string, directory: string): Promise<string[]> {
  try {
    return (await readdir(fsPathOf(directory === '' ? root : join(root, directory)), { encoding: 'buffer' })).map((bytes) => nameFromBytes(bytes));
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}
