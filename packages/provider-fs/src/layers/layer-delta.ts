import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { fsPathOf, nameFromBytes, type ManifestEntry } from '@runtimectl/provider';
import { openWalkedFile, walkWorkspaceTree, type WalkedPath } from '@runtimectl/provider-local';
import { hashOfDescriptor } from '../blob-batch';
import { DirectoryCursor, withCursor } from '../directory-cursor';
import type { ContentHash } from '../blob-store';
import type { FileStamp } from '../stat-index';

/** What a sealed layer changed: a `ManifestDelta` without its base. */
export interface LayerDelta {
  removed: string[];
  changed: ManifestEntry[];
}

/** Where the layer's files go as they are hashed: its stat index (see SealedIndexWriter). */
export interface SealedFiles {
  add(path: string, info: FileStamp, hash: ContentHash): void;
}

/**
 * What the sealed layer at `layerRoot` changes in the tree below it: the layer is the change, so
 * this reads only the layer (its files hashed from it: a sealed layer never changes), whatever
 * the workspace's size. Its directories, files and links are the changed entries; each file, as
 * it is hashed, goes to `sealed` (the layer's stat index). A path gone is
 * a whiteout (a FIFO, socket or device in the layer, never in a manifest, removes what was at its
 * path), or a name an opaque directory of the layer hides: see `removedIn`, which reads the
 * layers of the base chain (`lowers`, top first; no trees when the base is the empty chain) and
 * the new tree (`newTree`) in the layer's directories only, with no extended attribute read.
 */
export async function layerDelta(layerRoot: string, trees: { newTree: string; lowers: readonly string[] } | null, sealed?: SealedFiles): Promise<LayerDelta> {
  const delta: LayerDelta = { removed: [], changed: [] };
  const directories = [''];
  await walkWorkspaceTree(layerRoot, {
    directory: ({ path, mode }) => {
      directories.push(path);
      delta.changed.push({ path, kind: 'directory', mode, size: 0, target: null, hash: null });
    },
    symlink: ({ path, mode }, target) => void delta.changed.push({ path, kind: 'symlink', mode, size: Buffer.byteLength(target), target, hash: null }),
    special: ({ path }) => void delta.removed.push(path),
    file: async (entry) => {
      // A sealed layer never changes: an empty file there is the empty content, read or not (one shared hash, no descriptor).
      const { hash, size } = entry.info.size === 0n ? EMPTY_CONTENT : await hashOfWalkedFile(entry);
      sealed?.add(entry.path, entry.info, hash);
      delta.changed.push({ path: entry.path, kind: 'file', mode: entry.mode, size, target: null, hash });
    },
  });
  if (trees !== null) {
    const whiteouts = new Set(delta.removed);
    for (const path of await removedIn(directories, trees)) if (!whiteouts.has(path)) delta.removed.push(path);
  }
  return delta;
}

/** The hash of no bytes: every empty file's. */
const EMPTY_CONTENT = { hash: createHash('sha256').digest('hex'), size: 0 };

/** The hash and size of a walked file of the layer. */
async function hashOfWalkedFile(entry: WalkedPath): Promise<{ hash: ContentHash; size: number }> {
  const { fd } = openWalkedFile(entry);
  try {
    return await hashOfDescriptor(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The paths below the layer's `directories` that the base tree may show and the new tree does
 * not. The base tree's names in a directory are at most those the base chain's layers hold there
 * whose topmost entry is not a whiteout (the kernel's merge only hides more: an opaque directory,
 * a whiteout or a file above); each of them the new tree lacks is removed (one the base did not
 * show after all removes nothing: a delta may name an absent path). So a directory of the layer
 * whose lower names are all still there (a file changed among others: the common case) costs a
 * listing per layer, and no mount is needed. Read through directories held open, never through a
 * link (a directory of the layer may have been a link in the base tree, or lie under one: never
 * listed there): short paths, however deep the tree (past PATH_MAX).
 */
async function removedIn(directories: string[], trees: { newTree: string; lowers: readonly string[] }): Promise<string[]> {
  const removed: string[] = [];
  const cursors: DirectoryCursor[] = [];
  try {
    for (const lower of trees.lowers) cursors.push(new DirectoryCursor(lower));
    await withCursor(trees.newTree, async (next) => {
      for (const directory of directories) {
        const seen = new Set<string>();
        const maybeInBase: string[] = [];
        for (const [at, cursor] of cursors.entries()) {
          for (const entry of await entriesIn(directory === '' ? trees.lowers[at]! : directoryIn(cursor, directory))) {
            const name = nameFromBytes(entry.name);
            if (seen.has(name)) continue;
            seen.add(name);
            if (!entry.isCharacterDevice()) maybeInBase.push(name);
          }
        }
        if (maybeInBase.length === 0) continue;
        const kept = new Set((await entriesIn(directory === '' ? fsPathOf(trees.newTree) : directoryIn(next, directory))).map((entry) => nameFromBytes(entry.name)));
        for (const name of maybeInBase) if (!kept.has(name)) removed.push(directory === '' ? name : `${directory}/${name}`);
      }
    });
  } finally {
    for (const cursor of cursors) cursor.close();
  }
  return removed;
}

/** The short path of `directory` under the cursor's root; null when a directory on the way is missing, a file or a link. */
function directoryIn(cursor: DirectoryCursor, directory: string): string | Buffer | null {
  try {
    return cursor.pathOf(directory);
  } catch (error) {
    if (NOT_A_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

const NOT_A_DIRECTORY = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** The entries of the directory at `path` (names as bytes); none when it is missing, or not a directory (a link to one included). */
async function entriesIn(path: string | Buffer | null): Promise<Dirent<Buffer>[]> {
  if (path === null || !(await isDirectory(path))) return [];
  try {
    return await readdir(path, { encoding: 'buffer', withFileTypes: true });
  } catch (error) {
    if (NOT_A_DIRECTORY.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
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
