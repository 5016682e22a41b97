import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { FileTooLargeError, InvalidRequestError, PathNotFoundError } from '@runtimectl/provider';
import { DirectoryCursor } from '../directory-cursor';
import { snapshotFilePath } from '../snapshot-file';

/**
 * The regular file at workspace-relative `path` under `root` (a snapshot's read-only view),
 * never following a symbolic link on the way or at the end (a link recorded in a snapshot is
 * never read through to the host). Errors as `readSnapshotFile`.
 */
export function readViewFile(root: string, path: string, maxBytes?: number): Buffer {
  const relative = snapshotFilePath(path);
  const cursor = new DirectoryCursor(root);
  let fd: number;
  try {
    fd = openSync(cursor.pathOf(relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new PathNotFoundError(path);
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new InvalidRequestError(`${path} is not a regular file in the snapshot`, { path });
    throw error;
  } finally {
    cursor.close();
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new InvalidRequestError(`${path} is not a regular file in the snapshot`, { path });
    if (maxBytes !== undefined && info.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
