import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readdir, readlink, type FileHandle } from 'node:fs/promises';
import { descriptorPath, openDirectory } from '@runtimectl/provider-local';
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
 * The walk goes through directory descriptors (opened without following links, as the local
 * provider's jail does), never path strings, so a command swapping a directory for a link to
 * the host mid-walk can never bring a host name, link target or file into the snapshot.
 */
export async function walkWorkspace(root: string, blobs: BlobStore, index: StatIndex): Promise<WalkResult> {
  const top = await openDirectory(root);
  try {
    const rootMode = Number((await top.stat({ bigint: true })).mode & 0o7777n);
    const result: WalkResult = { rootMode, entries: [], skipped: [], hashedFiles: 0, reusedFiles: 0 };
    await walkDirectory(top, '', blobs, index, result);
    return result;
  } finally {
    await top.close();
  }
}

async function walkDirectory(directory: FileHandle, relative: string, blobs: BlobStore, index: StatIndex, result: WalkResult): Promise<void> {
  const names = (await readdir(descriptorPath(directory))).sort();
  for (const name of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const at = descriptorPath(directory, name);
    let info: BigIntStats;
    try {
      info = await lstat(at, { bigint: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // Removed meanwhile: not in the snapshot.
      throw error;
    }
    const mode = Number(info.mode & 0o7777n);
    if (info.isSymbolicLink()) {
      result.entries.push({ path, kind: 'symlink', target: await readlink(at) });
    } else if (info.isDirectory()) {
      result.entries.push({ path, kind: 'dir', mode });
      const child = await openDirectory(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOOP' || error.code === 'ENOTDIR') throw new WorkspaceChangedError('a directory was replaced while the checkpoint read it');
        throw error;
      });
      try {
        await walkDirectory(child, path, blobs, index, result);
      } finally {
        await child.close();
      }
    } else if (info.isFile()) {
      const known = index.known(path, info);
      const hash = known ?? (await storeFile(at, info, blobs));
      if (known) result.reusedFiles++;
      else result.hashedFiles++;
      index.record(path, info, hash);
      result.entries.push({ path, kind: 'file', mode, size: Number(info.size), mtimeMs: Number(info.mtimeNs / 1_000_000n), hash });
    } else {
      result.skipped.push({ path, kind: info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device' });
    }
  }
}

async function storeFile(at: string, info: BigIntStats, blobs: BlobStore): Promise<string> {
  const handle = await open(at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    throw error;
  });
  try {
    const opened = await handle.stat({ bigint: true });
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
      throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    }
    return (await blobs.put(handle)).hash;
  } finally {
    await handle.close();
  }
}
