import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from './blob-store';
import type { ManifestEntry, SkippedEntry } from './manifest';
import type { StatIndex } from './stat-index';

export interface WalkResult {
  rootMode: number;
  entries: ManifestEntry[];
  skipped: SkippedEntry[];
  /** Files read and hashed in this walk. */
  hashedFiles: number;
  /** Files whose hash the stat index supplied without reading them. */
  reusedFiles: number;
}

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A regular file, symlink or directory changed under the walk in a way it cannot record (a swap). */
export class WorkspaceChangedError extends Error {}

/**
 * Walks the workspace at `root` (a real path), never following a symbolic link: each link is
 * recorded with its target, each regular file's content is stored in `blobs` (or its hash taken
 * from `index` when its stat is unchanged), FIFOs, sockets and devices are skipped and listed.
 * A file is read only through a descriptor opened without following links whose path the
 * kernel confirms is the one walked, so a command swapping a directory for a link to the host
 * mid-walk can never bring a host file into the snapshot.
 */
export async function walkWorkspace(root: string, blobs: BlobStore, index: StatIndex): Promise<WalkResult> {
  const result: WalkResult = { rootMode: Number((await lstat(root, { bigint: true })).mode & 0o7777n), entries: [], skipped: [], hashedFiles: 0, reusedFiles: 0 };
  await walkDirectory(root, '', blobs, index, result);
  return result;
}

async function walkDirectory(root: string, relative: string, blobs: BlobStore, index: StatIndex, result: WalkResult): Promise<void> {
  const names = (await readdir(join(root, relative))).sort();
  for (const name of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const absolute = join(root, path);
    let info: BigIntStats;
    try {
      info = await lstat(absolute, { bigint: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // Removed meanwhile: not in the snapshot.
      throw error;
    }
    const mode = Number(info.mode & 0o7777n);
    if (info.isSymbolicLink()) {
      result.entries.push({ path, kind: 'symlink', target: await readlink(absolute) });
    } else if (info.isDirectory()) {
      result.entries.push({ path, kind: 'dir', mode });
      await walkDirectory(root, path, blobs, index, result);
    } else if (info.isFile()) {
      const known = index.known(path, info);
      const hash = known ?? (await storeFile(absolute, info, blobs));
      if (known) result.reusedFiles++;
      else result.hashedFiles++;
      index.record(path, info, hash);
      result.entries.push({ path, kind: 'file', mode, size: Number(info.size), mtimeMs: Number(info.mtimeNs / 1_000_000n), hash });
    } else {
      result.skipped.push({ path, kind: info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device' });
    }
  }
}

async function storeFile(absolute: string, info: BigIntStats, blobs: BlobStore): Promise<string> {
  const handle = await open(absolute, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const opened = await handle.stat({ bigint: true });
    const seenAs = await readlink(`/proc/self/fd/${handle.fd}`);
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev || seenAs !== absolute) {
      throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    }
    return (await blobs.put(handle)).hash;
  } finally {
    await handle.close();
  }
}
