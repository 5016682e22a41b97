import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** The file-system block: a run of zeros this long is left a hole, never written. */
const BLOCK = 4096;
const ZEROS = Buffer.alloc(BLOCK);

const isZeroBlock = (content: Uint8Array, at: number) => {
  const end = Math.min(at + BLOCK, content.length);
  return Buffer.compare(content.subarray(at, end), ZEROS.subarray(0, end - at)) === 0;
};

/**
 * Writes `content` at `position` of a file that was empty from there on, skipping every block of
 * zeros (`cp --sparse=always`): what a hole held reads back as zeros, so a sparse file stays
 * sparse through the store and every checkout (issue 34: 16 sparse 60 MiB files had become
 * 961 MiB). The caller ends the file with `ftruncateSync` at its length, since trailing zeros are
 * never written.
 */
export function writeSparseSync(fd: number, content: Uint8Array, position = 0): void {
  let at = 0;
  while (at < content.length) {
    while (at < content.length && isZeroBlock(content, at)) at += BLOCK;
    const start = at;
    while (at < content.length && !isZeroBlock(content, at)) at += BLOCK;
    const data = content.subarray(start, Math.min(at, content.length));
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written, data.length - written, position + start + written);
  }
}

/** Writes `content` whole to the new file `path` (flags `wx`), sparse; returns its descriptor, still open. */
export function createSparseFileSync(path: string | Buffer, content: Uint8Array, mode: number): number {
  const fd = openSync(path, 'wx', mode);
  try {
    writeSparseSync(fd, content);
    ftruncateSync(fd, content.length);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A stream writing a new file (flags `wx`) sparse, as `writeSparseSync`: `createWriteStream` for content that may hold holes. */
export class SparseFileStream extends Writable {
  #fd: number | undefined;
  #position = 0;

  constructor(readonly path: string | Buffer, readonly mode: number) {
    super();
  }

  override _construct(callback: (error?: Error | null) => void): void {
    try {
      this.#fd = openSync(this.path, 'wx', this.mode);
      this.emit('open', this.#fd);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      writeSparseSync(this.#fd as number, chunk, this.#position);
      this.#position += chunk.length;
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    try {
      ftruncateSync(this.#fd as number, this.#position);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    callback(error);
  }
}
