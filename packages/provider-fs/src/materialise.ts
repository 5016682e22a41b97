import { chmodSync, lchownSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { fsPathOf } from '@runtimectl/provider';
import { BlobCorruptedError, type BlobStore } from './blob-store';
import type { Manifest } from './manifest';
import type { StatIndex } from './stat-index';
import { DirectoryCursor } from './directory-cursor';
import { KEPT_MODE_BITS, TimeSlices, type WorkspaceOwner } from '@runtimectl/provider-local';

/** A blob a snapshot path needs is missing or does not hash to what the manifest recorded. */
export class SnapshotCorruptedError extends Error {
  constructor(readonly path: string, cause: BlobCorruptedError) {
    super(`the snapshot's content for ${path} is ${cause.actual === 'missing' ? 'missing' : 'corrupted'} in the snapshot store`, { cause });
  }
}

/**
 * Recreates the manifest's tree in the empty directory `target` (a real path): directories,
 * files from the blob store (verified as read), symlinks as they were recorded. Directory
 * modes are applied last, deepest first, so a read-only directory can still be filled.
 * Each file written is recorded in `index` (the new workspace's stat index), so the workspace's
 * first checkpoint does not read it again. Every path written, and `target` itself, is given to
 * `owner` (the sandbox identity: the workspace's commands must be able to change it), and no
 * mode gets a setuid or setgid bit (`KEPT_MODE_BITS`; manifests written before that rule could
 * hold one). `SnapshotCorruptedError` naming the workspace path when a blob is missing or corrupted.
 */
export async function materialise(manifest: Manifest, blobs: BlobStore, target: string, index: StatIndex, owner?: WorkspaceOwner): Promise<void> {
  const directories: { path: string; mode: number }[] = [];
  const slices = new TimeSlices();
  const own = (at: string | Buffer) => {
    if (owner) lchownSync(at, owner.uid, owner.gid);
  };
  // Paths through open directories, never `target/…` strings: any depth, any name bytes.
  const cursor = new DirectoryCursor(target);
  try {
    for (const entry of manifest.entries) {
      const at = cursor.pathOf(entry.path);
      if (entry.kind === 'dir') {
        mkdirSync(at, { mode: 0o700 });
        own(at);
        directories.push({ path: entry.path, mode: entry.mode & KEPT_MODE_BITS });
      } else if (entry.kind === 'symlink') {
        symlinkSync(fsPathOf(entry.target), at);
        own(at);
      } else {
        try {
          await blobs.copyTo(entry.hash, at, entry.mode & KEPT_MODE_BITS, new Date(entry.mtimeMs));
        } catch (error) {
          if (error instanceof BlobCorruptedError) throw new SnapshotCorruptedError(entry.path, error);
          throw error;
        }
        own(at);
        index.recordWritten(entry.path, lstatSync(at, { bigint: true }), entry.hash);
      }
      await slices.yieldIfDue();
    }
    for (const { path, mode } of directories.reverse()) chmodSync(cursor.pathOf(path), mode);
  } finally {
    cursor.close();
  }
  own(target);
  chmodSync(target, manifest.rootMode & KEPT_MODE_BITS);
}
