import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { FileTooLargeError, InvalidRequestError } from '@runtimectl/provider';
import { notRegularFileError } from './fs-errors';

const { O_NONBLOCK, O_NOFOLLOW } = constants;

export interface OpenedFile {
  handle: FileHandle;
  /** Size when opened (a hint: the file may still change). */
  sizeBytes: number;
}

/**
 * Opens `at` (the jail's entry for `path`) without ever blocking and only if it is a regular
 * file. O_NONBLOCK: opening a FIFO otherwise waits for its other end, holding one of libuv's
 * four thread-pool threads for good (and with them every file call of the daemon). O_NOFOLLOW:
 * the jail has resolved every link, so one found now was swapped in. The kind is checked with
 * fstat on the OPENED descriptor, never on the path, so nothing can be swapped in between: a
 * FIFO, socket or device is closed again and refused before a byte moves (O_NONBLOCK is harmless
 * on a regular file). Errors of `open` itself are thrown as they are.
 */
export async function openRegularFile(at: string, flags: number, path: string): Promise<OpenedFile> {
  const handle = await open(at, flags | O_NONBLOCK | O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (info.isFile()) return { handle, sizeBytes: info.size };
    throw info.isDirectory() ? new InvalidRequestError(`${path} is a directory`, { path }) : notRegularFileError(path);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Reads an opened file to its end, but never more than `maxBytes + 1` bytes: `FileTooLargeError`
 * when there is more (a file bigger than told at open is read only that far too).
 */
export async function readAtMost(file: OpenedFile, maxBytes: number, path: string): Promise<Uint8Array> {
  if (file.sizeBytes > maxBytes) throw new FileTooLargeError(path, maxBytes);
  // One byte more than expected tells whether the file grew.
  let buffer = Buffer.allocUnsafe(file.sizeBytes + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.byteLength) {
      if (length > maxBytes) throw new FileTooLargeError(path, maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await file.handle.read(buffer, length, buffer.byteLength - length, null);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}
