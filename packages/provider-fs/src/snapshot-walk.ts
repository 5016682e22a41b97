import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readdir, readlink, type FileHandle } from 'node:fs/promises';
import { descriptorPath, openDirectory } from '@runtimectl/provider-local';
import type { BlobBatch } from './blob-batch';
import type { ManifestEntry, SkippedEntry } from './manifest';
import { FILE_CONCURRENCY, Limiter, settleAll } from './pool';
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

type FileEntry = Extract<ManifestEntry, { kind: 'file' }>;

/**
 * Walks the workspace at `root` (a real path), never following a symbolic link: each link is
 * recorded with its target, each regular file's content is staged in `blobs` (or its hash taken
 * from `index` when its stat is unchanged), FIFOs, sockets and devices are skipped and listed.
 * The walk goes through directory descriptors (opened without following links, as the local
 * provider's jail does), never path strings, so a command swapping a directory for a link to
 * the host mid-walk can never bring a host name, link target or file into the snapshot.
 * Directories are walked in order; the files to read are read a few at a time meanwhile (a
 * directory's descriptor stays open until each of its files is open).
 */
export async function walkWorkspace(root: string, blobs: BlobBatch, index: StatIndex): Promise<WalkResult> {
  const top = await openDirectory(root);
  const reads: Promise<void>[] = [];
  try {
    const rootMode = Number((await top.stat({ bigint: true })).mode & 0o7777n);
    const result: WalkResult = { rootMode, entries: [], skipped: [], hashedFiles: 0, reusedFiles: 0 };
    await walkDirectory(top, '', { blobs, index, result, reads, files: new Limiter(FILE_CONCURRENCY) });
    await settleAll(reads);
    return result;
  } catch (error) {
    await Promise.allSettled(reads);
    throw error;
  } finally {
    await top.close();
  }
}

interface Walk {
  blobs: BlobBatch;
  index: StatIndex;
  result: WalkResult;
  /** Files being read; the walk waits for all of them before it answers. */
  reads: Promise<void>[];
  files: Limiter;
}

async function walkDirectory(directory: FileHandle, relative: string, walk: Walk): Promise<void> {
  const names = (await readdir(descriptorPath(directory))).sort();
  // Every name's stat at once (the thread pool bounds them), then each entry in order.
  const stats = await Promise.all(
    names.map((name) =>
      lstat(descriptorPath(directory, name), { bigint: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null; // Removed meanwhile: not in the snapshot.
        throw error;
      }),
    ),
  );
  const opened: Promise<void>[] = [];
  try {
    for (const [position, name] of names.entries()) {
      const info = stats[position];
      if (!info) continue;
      const path = relative === '' ? name : `${relative}/${name}`;
      const at = descriptorPath(directory, name);
      const mode = Number(info.mode & 0o7777n);
      if (info.isSymbolicLink()) {
        walk.result.entries.push({ path, kind: 'symlink', target: await readlink(at) });
      } else if (info.isDirectory()) {
        walk.result.entries.push({ path, kind: 'dir', mode });
        const child = await openDirectory(at).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ELOOP' || error.code === 'ENOTDIR') throw new WorkspaceChangedError('a directory was replaced while the checkpoint read it');
          throw error;
        });
        try {
          await walkDirectory(child, path, walk);
        } finally {
          await child.close();
        }
      } else if (info.isFile()) {
        const entry: FileEntry = { path, kind: 'file', mode, size: Number(info.size), mtimeMs: Number(info.mtimeNs / 1_000_000n), hash: '' };
        walk.result.entries.push(entry);
        const known = walk.index.known(path, info);
        if (known) {
          entry.hash = known;
          walk.index.record(path, info, known);
          walk.result.reusedFiles++;
        } else {
          opened.push(readFile(at, info, entry, walk));
        }
      } else {
        walk.result.skipped.push({ path, kind: info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device' });
      }
    }
  } finally {
    // The directory's descriptor is closed by the caller: every file of it must be open by then.
    await Promise.allSettled(opened);
  }
  await settleAll(opened);
}

/**
 * Queues the read of one file; resolves once the file is open (or failed to open), so its
 * directory's descriptor may close. The read itself joins `walk.reads`.
 */
function readFile(at: string, info: BigIntStats, entry: FileEntry, walk: Walk): Promise<void> {
  return new Promise<void>((opened, failedToOpen) => {
    const read = walk.files.run(async () => {
      let handle: FileHandle;
      try {
        handle = await openUnchanged(at, info);
      } catch (error) {
        failedToOpen(error);
        return;
      }
      opened();
      try {
        entry.hash = (await walk.blobs.put(handle)).hash;
        walk.index.record(entry.path, info, entry.hash);
        walk.result.hashedFiles++;
      } finally {
        await handle.close();
      }
    });
    walk.reads.push(read);
  });
}

/** Opens the file lstat saw at `at`, never through a link: `WorkspaceChangedError` when it was swapped. */
async function openUnchanged(at: string, info: BigIntStats): Promise<FileHandle> {
  const handle = await open(at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
    throw error;
  });
  const opened = await handle.stat({ bigint: true });
  if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) {
    await handle.close();
    throw new WorkspaceChangedError('a file was replaced while the checkpoint read it');
  }
  return handle;
}
