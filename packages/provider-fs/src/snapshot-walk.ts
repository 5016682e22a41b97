import { closeSync, constants, fstatSync, openSync, lstatSync, readdirSync, readlinkSync, type BigIntStats } from 'node:fs';
import { descriptorPath, openDirectorySync } from '@runtimectl/provider-local';
import type { BlobBatch } from './blob-batch';
import type { ManifestEntry, SkippedEntry } from './manifest';
import { TimeSlices } from './time-slices';
import type { StatIndex } from './stat-index';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

export interface WalkResult {
  rootMode: number;
  entries: ManifestEntry[];
  skipped: SkippedEntry[];
  /** Files read and hashed in this walk. */
  hashedFiles: number;
  /** Files whose hash the stat index supplied without reading them. */
  reusedFiles: number;
}

/** A regular file, symlink or directory changed under the walk in a way it cannot record (a swap). */
export class WorkspaceChangedError extends Error {}

/**
 * Walks the workspace at `root` (a real path), never following a symbolic link: each link is
 * recorded with its target, each regular file's content is staged in `blobs` (or its hash taken
 * from `index` when its stat is unchanged), FIFOs, sockets and devices are skipped and listed.
 * The walk goes through directory descriptors (opened without following links, as the local
 * provider's jail does), never path strings, so a command swapping a directory for a link to
 * the host mid-walk can never bring a host name, link target or file into the snapshot.
 */
export async function walkWorkspace(root: string, blobs: BlobBatch, index: StatIndex): Promise<WalkResult> {
  const top = openDirectorySync(root);
  try {
    const rootMode = Number(fstatSync(top, { bigint: true }).mode & 0o7777n);
    const result: WalkResult = { rootMode, entries: [], skipped: [], hashedFiles: 0, reusedFiles: 0 };
    await walkDirectory(top, '', { blobs, index, result, slices: new TimeSlices() });
    return result;
  } finally {
    closeSync(top);
  }
}

interface Walk {
  blobs: BlobBatch;
  index: StatIndex;
  result: WalkResult;
  slices: TimeSlices;
}

async function walkDirectory(directory: number, relative: string, walk: Walk): Promise<void> {
  // Names and stats in direct system calls (see time-slices.ts).
  const names = readdirSync(descriptorPath(directory)).sort();
  for (const name of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const at = descriptorPath(directory, name);
    const info = lstatSync(at, { bigint: true, throwIfNoEntry: false });
    if (!info) continue; // Removed meanwhile: not in the snapshot.
    const mode = Number(info.mode & 0o7777n);
    if (info.isSymbolicLink()) {
      walk.result.entries.push({ path, kind: 'symlink', target: readlinkSync(at) });
    } else if (info.isDirectory()) {
      walk.result.entries.push({ path, kind: 'dir', mode });
      let child: number;
      try {
        child = openDirectorySync(at);
      } catch (error) {
        const { code } = error as NodeJS.ErrnoException;
        if (code === 'ELOOP' || code === 'ENOTDIR') throw new WorkspaceChangedError('a directory was replaced while the checkpoint read it');
        throw error;
      }
      try {
        await walkDirectory(child, path, walk);
      } finally {
        closeSync(child);
      }
    } else if (info.isFile()) {
      const known = walk.index.known(path, info);
      const hash = known ?? (await storeFile(at, info, walk.blobs));
      if (known) walk.result.reusedFiles++;
      else walk.result.hashedFiles++;
      walk.index.record(path, info, hash);
      walk.result.entries.push({ path, kind: 'file', mode, size: Number(info.size), mtimeMs: Number(info.mtimeNs / 1_000_000n), hash });
    } else {
      walk.result.skipped.push({ path, kind: info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device' });
    }
    if (walk.slices.due()) await walk.slices.yield();
  }
}

async function storeFile(at: string, info: BigIntStats, blobs: BlobBatch): Promise<string> {
  let fd: number;
  try {
    fd = openSync(at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    throw error;
  }
  try {
    const opened = fstatSync(fd, { bigint: true });
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
      throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    }
    return (await blobs.put(fd, Number(opened.size))).hash;
  } finally {
    closeSync(fd);
  }
}
