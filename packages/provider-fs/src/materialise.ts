import { chmod, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobCorruptedError, type BlobStore } from './blob-store';
import type { Manifest } from './manifest';
import { FILE_CONCURRENCY, forEachLimited } from './pool';

/** A blob a snapshot path needs is missing or does not hash to what the manifest recorded. */
export class SnapshotCorruptedError extends Error {
  constructor(readonly path: string, cause: BlobCorruptedError) {
    super(`the snapshot's content for ${path} is ${cause.actual === 'missing' ? 'missing' : 'corrupted'} in the snapshot store`, { cause });
  }
}

/**
 * Recreates the manifest's tree in the empty directory `target` (a real path): directories
 * first (parents first, as the manifest lists them), then files from the blob store (verified
 * as read, a few at a time) and symlinks as they were recorded. Directory modes are applied
 * last, deepest first, so a read-only directory can still be filled.
 * `SnapshotCorruptedError` naming the workspace path when a blob is missing or corrupted.
 */
export async function materialise(manifest: Manifest, blobs: BlobStore, target: string): Promise<void> {
  const directories: { absolute: string; mode: number }[] = [];
  for (const entry of manifest.entries) {
    if (entry.kind !== 'dir') continue;
    const absolute = join(target, entry.path);
    await mkdir(absolute, { mode: 0o700 });
    directories.push({ absolute, mode: entry.mode });
  }
  await forEachLimited(manifest.entries, FILE_CONCURRENCY, async (entry) => {
    const absolute = join(target, entry.path);
    if (entry.kind === 'symlink') {
      await symlink(entry.target, absolute);
    } else if (entry.kind === 'file') {
      try {
        await blobs.copyTo(entry.hash, absolute, entry.mode, new Date(entry.mtimeMs));
      } catch (error) {
        if (error instanceof BlobCorruptedError) throw new SnapshotCorruptedError(entry.path, error);
        throw error;
      }
    }
  });
  for (const { absolute, mode } of directories.reverse()) await chmod(absolute, mode);
  await chmod(target, manifest.rootMode);
}
