import { FileTooLargeError, InvalidRequestError, PathNotFoundError } from '@runtimectl/provider';
import type { BlobStore } from './blob-store';
import type { Manifest } from './manifest';

/**
 * The content of the regular file at workspace-relative `path` in the snapshot `manifest`, from
 * the blob store (verified as read), without materialising anything. `PathNotFoundError` when
 * the snapshot holds no such path, `InvalidRequestError` for a directory or symlink (or a path
 * leaving the workspace), `FileTooLargeError` over `maxBytes` (checked before reading).
 */
export async function readSnapshotFile(manifest: Manifest, blobs: BlobStore, path: string, maxBytes?: number): Promise<Buffer> {
  const relative = snapshotFilePath(path);
  const entry = manifest.entries.find((candidate) => candidate.path === relative);
  if (!entry) throw new PathNotFoundError(path);
  if (entry.kind !== 'file') throw new InvalidRequestError(`${path} is not a regular file in the snapshot`, { path });
  if (maxBytes !== undefined && entry.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
  return blobs.read(entry.hash);
}

/** `path` relative to a snapshot's root (`./` and a trailing `/` dropped); `InvalidRequestError` for one that could leave it. */
export function snapshotFilePath(path: string): string {
  const relative = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (relative === '' || relative.startsWith('/') || relative.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new InvalidRequestError(`${path} is not a workspace-relative path of a file`, { path });
  }
  return relative;
}
