import { createHash } from 'node:crypto';
import { closeSync, constants, copyFileSync, createReadStream, fchmodSync, futimesSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { createSparseFileSync, SparseFileStream } from './sparse-writes';
import { BlobBatch, digestOf, Hashing, WHOLE_CONTENT_BYTES } from './blob-batch';
import type { CrashPointHook } from './crash-points';

/** A blob's content hash: sha256, lowercase hex. */
export type ContentHash = string;

const HASH = /^[0-9a-f]{64}$/;

/** The content did not hash to the name it was asked for under: a corrupted or truncated blob. */
export class BlobCorruptedError extends Error {
  constructor(readonly hash: ContentHash, readonly actual: ContentHash | 'missing' | 'unreadable') {
    super(actual === 'missing' ? `blob ${hash} is missing` : actual === 'unreadable' ? `blob ${hash} is corrupted (it does not decompress)` : `blob ${hash} is corrupted (its content hashes to ${actual})`);
  }
}

export interface BlobStoreSettings {
  /** gzip blobs where it saves at least 10%. Default true. */
  compress?: boolean;
  /** Test seam: called where a crash could land (crash-points.ts). */
  crashPoint?: CrashPointHook;
}

/** Clone errors meaning "this file system cannot clone": copy instead, and stop trying. */
const NO_CLONE = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY']);

/**
 * Content-addressed file contents under `<directory>/ab/cdef…` (sha256 of the content), each
 * distinct content stored once, raw or as `…gz` where compression pays. New blobs are written
 * through a `BlobBatch` (one per checkpoint): a blob appears under its final name only whole
 * and durable.
 */
export class BlobStore {
  readonly compress: boolean;
  readonly crashPoint: CrashPointHook | undefined;
  /** Whether copy-on-write clones work here; learnt from the first attempt. */
  #clones: boolean | undefined;

  constructor(readonly directory: string, settings: BlobStoreSettings = {}) {
    this.compress = settings.compress ?? true;
    this.crashPoint = settings.crashPoint;
  }

  /** A batch of new blobs: `put` each, then `commit` before writing anything that names them. */
  batch(): BlobBatch {
    return new BlobBatch(this);
  }

  /** Stores one file's content durably (a batch of one). */
  async put(source: FileHandle): Promise<{ hash: ContentHash; size: number }> {
    const batch = this.batch();
    const stored = await batch.put(source.fd);
    await batch.commit();
    return stored;
  }

  has(hash: ContentHash): boolean {
    return this.#stored(hash) !== null;
  }

  /** Whether stored blob `hash` still hashes to its name: read whole (decompressed), never into memory at once. */
  async intact(hash: ContentHash): Promise<boolean> {
    const stored = this.#stored(hash);
    if (!stored) return false;
    try {
      const source = createReadStream(stored.path);
      return (await (stored.compressed ? digestOf(source, createGunzip()) : digestOf(source))).hash === hash;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') return false;
      throw error;
    }
  }

  /** Removes blob `hash`'s file in the other encoding than `compressed` (a corrupted copy being replaced). */
  removeEncoding(hash: ContentHash, compressed: boolean): void {
    rmSync(this.finalPath(hash, !compressed), { force: true });
  }

  /** Where blob `hash` lives under its final name. */
  finalPath(hash: ContentHash, compressed: boolean): string {
    return `${join(this.directory, hash.slice(0, 2), hash.slice(2))}${compressed ? '.gz' : ''}`;
  }

  /**
   * Writes blob `hash` to a new file `target` (which must not exist) with exactly `mode` (and
   * `mtime` when given), verifying the content hashes to `hash` as it is read — every byte read
   * once: a raw blob is cloned copy-on-write where the file system can (and the blob read to
   * verify it), else read, hashed and written in one pass. `BlobCorruptedError` when it is
   * missing or does not match (the partial target is removed).
   */
  async copyTo(hash: ContentHash, target: string | Buffer, mode: number, mtime?: Date): Promise<void> {
    const stored = this.#stored(hash);
    if (!stored) throw new BlobCorruptedError(hash, 'missing');
    try {
      const actual = stored.compressed ? await this.#gunzipTo(stored, target, mode, mtime) : await this.#copyRawTo(stored, target, mode, mtime);
      if (actual !== hash) throw new BlobCorruptedError(hash, actual);
    } catch (error) {
      await rm(target, { force: true });
      if (!(error instanceof BlobCorruptedError) && (error as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') throw new BlobCorruptedError(hash, 'unreadable');
      throw error;
    }
  }

  async #copyRawTo({ path: blob, size }: StoredBlob, target: string | Buffer, mode: number, mtime: Date | undefined): Promise<ContentHash> {
    if (this.#clones !== false) {
      try {
        copyFileSync(blob, target, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE_FORCE);
        this.#clones = true;
        const actual = await hashOf(blob);
        await finish(target, mode, mtime);
        return actual;
      } catch (error) {
        if (!NO_CLONE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        this.#clones = false;
      }
    }
    if (size <= WHOLE_CONTENT_BYTES) return writeVerified(readIntoScratch(blob, size), target, mode, mtime);
    const hashing = new Hashing();
    await pipeline(createReadStream(blob), hashing, new SparseFileStream(target, 0o600));
    await finish(target, mode, mtime);
    return hashing.hash.digest('hex');
  }

  async #gunzipTo({ path: blob, size }: StoredBlob, target: string | Buffer, mode: number, mtime: Date | undefined): Promise<ContentHash> {
    if (size <= WHOLE_CONTENT_BYTES / 4) return writeVerified(gunzipSync(readFileSync(blob)), target, mode, mtime);
    const hashing = new Hashing();
    await pipeline(createReadStream(blob), createGunzip(), hashing, new SparseFileStream(target, 0o600));
    await finish(target, mode, mtime);
    return hashing.hash.digest('hex');
  }

  /** Removes blob `hash` (both encodings). For garbage collection only. */
  async remove(hash: ContentHash): Promise<void> {
    await rm(this.finalPath(hash, false), { force: true });
    await rm(this.finalPath(hash, true), { force: true });
  }

  /**
   * Removes every blob not in `keep`, and temporary files a killed writer left. Only while no
   * writer runs (the caller holds the store exclusively). Any order is crash-safe: a blob left
   * behind is removed by the next sweep. Returns how many blobs were removed.
   */
  sweep(keep: ReadonlySet<ContentHash>): Promise<number> {
    return this.#sweep(keep);
  }

  /** Removes only the temporary files killed writers left. Only while no writer runs, as `sweep`. */
  async sweepTemporaries(): Promise<void> {
    await this.#sweep(null);
  }

  async #sweep(keep: ReadonlySet<ContentHash> | null): Promise<number> {
    let removed = 0;
    let shards: string[];
    try {
      shards = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    for (const shard of shards) {
      const at = join(this.directory, shard);
      if (shard.endsWith('.tmp')) {
        await rm(at, { force: true });
        continue;
      }
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await readdir(at)) {
        if (name.endsWith('.tmp')) {
          await rm(join(at, name), { force: true });
        } else if (keep && !keep.has(`${shard}${name.replace(/\.gz$/, '')}`)) {
          await rm(join(at, name), { force: true });
          removed++;
          this.crashPoint?.('blob-removed');
        }
      }
    }
    return removed;
  }

  /** Blob `hash`'s content, verified as read (`BlobCorruptedError` when it does not hash to its name). */
  async read(hash: ContentHash): Promise<Buffer> {
    const stored = this.#stored(hash);
    if (!stored) throw new BlobCorruptedError(hash, 'missing');
    const raw = readFileSync(stored.path);
    let content: Buffer;
    try {
      content = stored.compressed ? gunzipSync(raw) : raw;
    } catch {
      throw new BlobCorruptedError(hash, 'unreadable');
    }
    const actual = createHash('sha256').update(content).digest('hex');
    if (actual !== hash) throw new BlobCorruptedError(hash, actual);
    return content;
  }

  /** The on-disk file of blob `hash` (for tests and measurements). */
  async pathOf(hash: ContentHash): Promise<string | null> {
    return this.#stored(hash)?.path ?? null;
  }

  #stored(hash: ContentHash): StoredBlob | null {
    if (!HASH.test(hash)) throw new TypeError(`not a content hash: ${hash}`);
    for (const compressed of [false, true]) {
      const path = this.finalPath(hash, compressed);
      const info = statSync(path, { throwIfNoEntry: false });
      if (info?.isFile()) return { path, compressed, size: info.size };
    }
    return null;
  }
}

interface StoredBlob {
  path: string;
  compressed: boolean;
  size: number;
}

/**
 * The one buffer raw blobs up to WHOLE_CONTENT_BYTES are read into for a copy — used only by
 * synchronous code, never across an await — so a checkout of 200 MiB does not allocate (and the
 * garbage collector then sweep) 200 MiB of buffers, one per file.
 */
const scratch = Buffer.allocUnsafe(WHOLE_CONTENT_BYTES);

/** The first `size` bytes of `path` (fewer when it is shorter), in `scratch`: valid until the next call. */
function readIntoScratch(path: string, size: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < size) {
      const bytes = readSync(fd, scratch, read, size - read, read);
      if (bytes === 0) break;
      read += bytes;
    }
    return scratch.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Writes `content` to the new file `target` (sparse) with exactly `mode` and `mtime`; returns the content's hash. */
function writeVerified(content: Buffer, target: string | Buffer, mode: number, mtime: Date | undefined): ContentHash {
  const fd = createSparseFileSync(target, content, 0o600);
  try {
    fchmodSync(fd, mode);
    if (mtime) futimesSync(fd, mtime, mtime);
  } finally {
    closeSync(fd);
  }
  return createHash('sha256').update(content).digest('hex');
}

async function finish(target: string | Buffer, mode: number, mtime: Date | undefined): Promise<void> {
  const file = await open(target, 'r');
  try {
    await file.chmod(mode);
    if (mtime) await file.utimes(mtime, mtime);
  } finally {
    await file.close();
  }
}

/** sha256 of a file's content. */
export async function hashOf(path: string): Promise<ContentHash> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}
