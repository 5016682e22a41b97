import { closeSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { fsPathOf, nameFromBytes, type ManifestEntry } from '@runtimectl/provider';
import { openWalkedFile, walkWorkspaceTree } from '@runtimectl/provider-local';
import { hashOfDescriptor } from '../blob-batch';
import { withCursor } from '../directory-cursor';
import type { ContentHash } from '../blob-store';
import { stampOf, type FileStamp } from '../stat-index';

/** A file of a sealed layer, hashed: what the stat index records of it. */
export interface SealedFile {
  path: string;
  info: FileStamp;
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
        hash = (await hashOfDescriptor(fd, size)).hash;
      } finally {
        closeSync(fd);
      }
      delta.files.push({ path: entry.path, info: stampOf(entry.info), hash });
      delta.changed.push({ path: entry.path, kind: 'file', mode: entry.mode, size, target: null, hash });
    },
  });
  if (views !== null) delta.removed = delta.removed.concat(await removedIn(directories, views));
  return delta;
}

/**
 * The paths below the layer's `directories` that the base tree shows and the new tree does not,
 * listed through directories held open: short paths, however deep the tree (past PATH_MAX).
 */
async function removedIn(directories: string[], views: { newView: string; baseView: string }): Promise<string[]> {
  const removed: string[] = [];
  await withCursor(views.baseView, (base) =>
    withCursor(views.newView, async (next) => {
      // A directory of the layer may have been a symlink (or a file) in the base tree, or lie
      // under one: never listed there, so a link a command made cannot make the walk read what it names.
      const notInBase = new Set<string>();
      for (const directory of directories) {
        const parent = directory.includes('/') ? directory.slice(0, directory.lastIndexOf('/')) : '';
        if (directory !== '' && (notInBase.has(parent) || !(await isDirectory(base.pathOf(directory))))) {
          notInBase.add(directory);
          continue;
        }
        const kept = new Set(await namesIn(directory === '' ? fsPathOf(views.newView) : next.pathOf(directory)));
        for (const name of await namesIn(directory === '' ? fsPathOf(views.baseView) : base.pathOf(directory))) {
          if (!kept.has(name)) removed.push(directory === '' ? name : `${directory}/${name}`);
        }
      }
    }),
  );
  return removed;
}

/** Whether `path` is a directory, not a link to one. */
async function isDirectory(path: string | Buffer): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The names in the directory at `path`, as manifests spell them; none when it is not a directory. */
async function namesIn(path: string | Buffer): Promise<string[]> {
  try {
    return (await readdir(path, { encoding: 'buffer' })).map((bytes) => nameFromBytes(bytes));
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}
