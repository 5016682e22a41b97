import { createHash, type Hash } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { fsyncDirectory, fsyncFile, temporaryNameBeside } from './durable-files';

/** A blob's content hash: sha256, lowercase hex. */
export type ContentHash = string;

const HASH = /^[0-9a-f]{64}$/;
/** Below this a compressed copy cannot save a disk block worth the CPU. */
const COMPRESS_FROM_BYTES = 4096;
/** Keep the compressed copy only when it saves at least this fraction of the raw size. */
const COMPRESSION_MUST_SAVE = 0.1;

/** The content did not hash to the name it was asked for under: a corrupted or truncated blob. */
export class BlobCorruptedError extends Error {
  constructor(readonly hash: ContentHash, readonly actual: ContentHash | 'missing' | 'unreadable') {
    super(actual === 'missing' ? `blob ${hash} is missing` : actual === 'unreadable' ? `blob ${hash} is corrupted (it does not decompress)` : `blob ${hash} is corrupted (its content hashes to ${actual})`);
  }
}

/** Passes bytes through, hashing them. */
class Hashing extends Transform {
  readonly hash: Hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

export interface BlobStoreSettings {
  /** gzip blobs where it saves at least 10%. Default true. */
  compress?: boolean;
}

/**
 * Content-addressed file contents under `<directory>/ab/cdef…` (sha256 of the content), each
 * distinct content stored once, raw or as `…gz` where compression pays. A blob appears under
 * its final name only whole and fsynced (temporary name, fsync, rename); `flush` makes the
 * renames themselves durable before a manifest naming the blobs is written.
 */
export class BlobStore {
  readonly #compress: boolean;
  readonly #unflushed = new Set<string>();

  constructor(readonly directory: string, settings: BlobStoreSettings = {}) {
    this.#compress = settings.compress ?? true;
  }

  /**
   * Stores the content of the open file `source` (read from its start), returning its hash.
   * One pass: the content is hashed as it is copied, so a file changing meanwhile can never be
   * stored under another content's hash.
   */
  async put(source: FileHandle): Promise<{ hash: ContentHash; size: number }> {
    await mkdir(this.directory, { recursive: true });
    const raw = temporaryNameBeside(join(this.directory, 'x'));
    const hashing = new Hashing();
    try {
      await pipeline(source.createReadStream({ start: 0, autoClose: false }), hashing, createWriteStream(raw, { flush: true }));
      const hash = hashing.hash.digest('hex');
      if (await this.has(hash)) return { hash, size: hashing.bytes };
      const stored = this.#compress && hashing.bytes >= COMPRESS_FROM_BYTES ? await this.#compressedIfSmaller(raw, hashing.bytes) : null;
      const final = stored ? `${this.#rawPath(hash)}.gz` : this.#rawPath(hash);
      await mkdir(this.#shard(hash), { recursive: true });
      // link, not rename: an existing blob (a concurrent put of the same content) is never replaced.
      await link(stored ?? raw, final).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      this.#unflushed.add(this.#shard(hash));
      if (stored) await rm(stored, { force: true });
      return { hash, size: hashing.bytes };
    } finally {
      await rm(raw, { force: true });
    }
  }

  /** Makes every blob stored since the last flush durable under its name (fsync of their directories). */
  async flush(): Promise<void> {
    for (const shard of [...this.#unflushed]) {
      await fsyncDirectory(shard);
      this.#unflushed.delete(shard);
    }
  }

  async has(hash: ContentHash): Promise<boolean> {
    return (await this.#stored(hash)) !== null;
  }

  /**
   * Writes blob `hash` to a new file `target` (which must not exist), verifying the content
   * hashes to `hash` as it is read; a raw blob is cloned copy-on-write where the file system can.
   * `BlobCorruptedError` when it is missing or does not match (the partial target is removed).
   */
  async copyTo(hash: ContentHash, target: string, mode: number): Promise<void> {
    const stored = await this.#stored(hash);
    if (!stored) throw new BlobCorruptedError(hash, 'missing');
    try {
      let actual: string;
      if (stored.compressed) {
        const hashing = new Hashing();
        await pipeline(createReadStream(stored.path), createGunzip(), hashing, createWriteStream(target, { flags: 'wx', mode }));
        actual = hashing.hash.digest('hex');
      } else {
        await copyFile(stored.path, target, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
        actual = await hashOf(target);
      }
      if (actual !== hash) throw new BlobCorruptedError(hash, actual);
    } catch (error) {
      await rm(target, { force: true });
      if (!(error instanceof BlobCorruptedError) && (error as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') throw new BlobCorruptedError(hash, 'unreadable');
      throw error;
    }
  }

  /** Removes blob `hash` (both encodings). For garbage collection only. */
  async remove(hash: ContentHash): Promise<void> {
    await rm(this.#rawPath(hash), { force: true });
    await rm(`${this.#rawPath(hash)}.gz`, { force: true });
  }

  /**
   * Removes every blob not in `keep`, and temporary files a killed writer left. Only while no
   * writer runs (the caller holds the store exclusively). Any order is crash-safe: a blob left
   * behind is removed by the next sweep. Returns how many blobs were removed.
   */
  async sweep(keep: ReadonlySet<ContentHash>): Promise<number> {
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
        const hash = `${shard}${name.replace(/\.gz$/, '')}`;
        if (name.endsWith('.tmp') || !keep.has(hash)) {
          await rm(join(at, name), { force: true });
          if (!name.endsWith('.tmp')) removed++;
        }
      }
    }
    return removed;
  }

  /** The on-disk file of blob `hash` (for tests and measurements). */
  async pathOf(hash: ContentHash): Promise<string | null> {
    return (await this.#stored(hash))?.path ?? null;
  }

  async #stored(hash: ContentHash): Promise<{ path: string; compressed: boolean } | null> {
    if (!HASH.test(hash)) throw new TypeError(`not a content hash: ${hash}`);
    for (const [path, compressed] of [[this.#rawPath(hash), false], [`${this.#rawPath(hash)}.gz`, true]] as const) {
      try {
        if ((await stat(path)).isFile()) return { path, compressed };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return null;
  }

  async #compressedIfSmaller(raw: string, rawBytes: number): Promise<string | null> {
    const compressed = temporaryNameBeside(raw);
    await pipeline(createReadStream(raw), createGzip(), createWriteStream(compressed, { flush: true }));
    if ((await stat(compressed)).size <= rawBytes * (1 - COMPRESSION_MUST_SAVE)) return compressed;
    await rm(compressed, { force: true });
    await fsyncFile(raw);
    return null;
  }

  #shard(hash: ContentHash): string {
    return join(this.directory, hash.slice(0, 2));
  }

  #rawPath(hash: ContentHash): string {
    return join(this.#shard(hash), hash.slice(2));
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
