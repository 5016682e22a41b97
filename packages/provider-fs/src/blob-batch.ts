import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipFileIfItPays, gzipIfItPays } from './blob-encoding';
import { syncPaths, temporaryNameBeside } from './durable-files';
import { FILE_CONCURRENCY, forEachLimited } from './pool';
import type { ContentHash } from './blob-store';

/** Contents up to this size are read whole (one read, hashed, written); larger ones stream. */
export const WHOLE_CONTENT_BYTES = 4 * 1024 * 1024;

/** Where a crash could land while blobs are written: a test seam (the crash tests kill the process there). */
export type BlobCrashPoint = 'blob-file-created' | 'blob-linked';

/** What a batch needs of its blob store. */
export interface BatchTarget {
  readonly directory: string;
  has(hash: ContentHash): Promise<boolean>;
  finalPath(hash: ContentHash, compressed: boolean): string;
  readonly compress: boolean;
  readonly crashPoint?: ((point: BlobCrashPoint) => void) | undefined;
}

/** Passes bytes through, hashing them. */
export class Hashing extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * The new blobs of one checkpoint. `put` stages each new content under a temporary name without
 * waiting for the disk; `commit` makes all of them durable at once (one file-system flush), then
 * links them under their final names and makes those names durable. So a blob's final name only
 * ever points at durable, whole content — what later checkpoints trust when they find it there —
 * and the manifest written after `commit` names only durable blobs.
 */
export class BlobBatch {
  readonly #staged = new Map<ContentHash, { temporary: string; final: string }>();
  #ready: Promise<unknown> | null = null;

  constructor(private readonly store: BatchTarget) {}

  /**
   * Stages the content of the open file `source` (read from its start), returning its hash. One
   * pass: the content is hashed as it is read and the very bytes hashed are written, so a file
   * changing meanwhile can never be stored under another content's hash.
   */
  async put(source: FileHandle): Promise<{ hash: ContentHash; size: number }> {
    this.#ready ??= mkdir(this.store.directory, { recursive: true });
    await this.#ready;
    const { size } = await source.stat();
    return size <= WHOLE_CONTENT_BYTES ? this.#putWhole(source) : this.#putStreamed(source);
  }

  async #putWhole(source: FileHandle): Promise<{ hash: ContentHash; size: number }> {
    const content = await source.readFile();
    const hash = createHash('sha256').update(content).digest('hex');
    if (!(await this.#isNew(hash))) return { hash, size: content.length };
    const compressed = this.store.compress ? await gzipIfItPays(content) : null;
    const temporary = temporaryNameBeside(join(this.store.directory, 'x'));
    const file = await open(temporary, 'wx');
    try {
      this.store.crashPoint?.('blob-file-created');
      await file.writeFile(compressed ?? content);
    } finally {
      await file.close();
    }
    this.#stage(hash, temporary, compressed !== null);
    return { hash, size: content.length };
  }

  async #putStreamed(source: FileHandle): Promise<{ hash: ContentHash; size: number }> {
    const raw = temporaryNameBeside(join(this.store.directory, 'x'));
    let keep: string | null = null;
    try {
      const hashing = new Hashing();
      const output = createWriteStream(raw, { flags: 'wx' });
      output.once('open', () => this.store.crashPoint?.('blob-file-created'));
      await pipeline(source.createReadStream({ start: 0, autoClose: false }), hashing, output);
      const hash = hashing.hash.digest('hex');
      if (!(await this.#isNew(hash))) return { hash, size: hashing.bytes };
      const compressed = this.store.compress ? await gzipFileIfItPays(raw, hashing.bytes) : null;
      keep = compressed ?? raw;
      this.#stage(hash, keep, compressed !== null);
      return { hash, size: hashing.bytes };
    } finally {
      if (keep !== raw) await rm(raw, { force: true });
    }
  }

  async #isNew(hash: ContentHash): Promise<boolean> {
    return !this.#staged.has(hash) && !(await this.store.has(hash));
  }

  #stage(hash: ContentHash, temporary: string, compressed: boolean): void {
    if (this.#staged.has(hash)) {
      void rm(temporary, { force: true });
      return;
    }
    this.#staged.set(hash, { temporary, final: this.store.finalPath(hash, compressed) });
  }

  /** Makes every staged blob durable, then durable under its final name. Nothing to do for an empty batch. */
  async commit(): Promise<void> {
    const staged = [...this.#staged.values()];
    if (staged.length === 0) return;
    await syncPaths(this.store.directory, staged.map(({ temporary }) => temporary));
    const shards = new Set(staged.map(({ final }) => dirname(final)));
    await forEachLimited(shards, FILE_CONCURRENCY, (shard) => mkdir(shard, { recursive: true }).then(() => undefined));
    await forEachLimited(staged, FILE_CONCURRENCY, async ({ temporary, final }) => {
      // link, not rename: an existing blob (a concurrent checkpoint's same content) is never replaced.
      await link(temporary, final).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      this.store.crashPoint?.('blob-linked');
      await rm(temporary, { force: true });
    });
    await syncPaths(this.store.directory, [...shards, this.store.directory]);
    this.#staged.clear();
  }

  /** Removes what was staged and not committed (the checkpoint failed). */
  async discard(): Promise<void> {
    await forEachLimited([...this.#staged.values()], FILE_CONCURRENCY, ({ temporary }) => rm(temporary, { force: true }));
    this.#staged.clear();
  }
}
