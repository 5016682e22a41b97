import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipFileIfItPays, gzipIfItPays } from './blob-encoding';
import { syncPaths, temporaryNameBeside, writeAllSync } from './durable-files';
import { createSparseFileSync, SparseFileStream } from './sparse-writes';
import type { ContentHash } from './blob-store';
import type { CrashPointHook } from './crash-points';
import { OWNER_ONLY_DIRECTORY_MODE, OWNER_ONLY_FILE_MODE, TimeSlices } from '@runtimectl/provider-local';

/** Contents up to this size are read whole (one read, hashed, written); larger ones stream. */
export const WHOLE_CONTENT_BYTES = 4 * 1024 * 1024;


/** What a batch needs of its blob store. */
export interface BatchTarget {
  readonly directory: string;
  has(hash: ContentHash): boolean;
  /** Whether stored blob `hash` still hashes to its name (read whole). */
  intact(hash: ContentHash): Promise<boolean>;
  /** Removes blob `hash`'s file in the other encoding than `compressed`, if any. */
  removeEncoding(hash: ContentHash, compressed: boolean): void;
  finalPath(hash: ContentHash, compressed: boolean): string;
  readonly compress: boolean;
  readonly crashPoint?: CrashPointHook | undefined;
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

/** The buffer `hashOfDescriptor` reads into: one per process, never held across a turn of the event loop. */
const scratch = Buffer.allocUnsafe(WHOLE_CONTENT_BYTES);

/**
 * The content hash of the file just opened at `fd` (the descriptor stays open), read from its
 * start to its end in pieces of up to `WHOLE_CONTENT_BYTES` into one reused buffer, each hashed
 * before the next turn of the event loop (a piece is at most a few milliseconds of reading). A
 * stream per file, or a buffer per file, cost a workspace of many small files a round trip
 * through the thread pool or an allocation and a garbage collection each (100,000 empty files:
 * 20 s to seal one layer). Read to its end, whatever size its caller saw.
 */
export async function hashOfDescriptor(fd: number): Promise<{ hash: ContentHash; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for (;;) {
    let filled = 0;
    while (filled < scratch.length) {
      const read = readSync(fd, scratch, filled, scratch.length - filled, size + filled);
      if (read === 0) break;
      filled += read;
    }
    hash.update(scratch.subarray(0, filled));
    size += filled;
    if (filled < scratch.length) return { hash: hash.digest('hex'), size };
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The sha256 and length of all `source` yields, through `transforms` (a gunzip) first; nothing is kept. */
export async function digestOf(source: Readable, ...transforms: Transform[]): Promise<{ hash: ContentHash; size: number }> {
  const hashing = new Hashing();
  await pipeline([source, ...transforms, hashing, new Writable({ write: (_chunk, _encoding, done) => done() })]);
  return { hash: hashing.hash.digest('hex'), size: hashing.bytes };
}

/**
 * The new blobs of one checkpoint. `put` stages each new content under a temporary name without
 * waiting for the disk; `commit` makes all of them durable at once (one file-system flush), then
 * renames them to their final names and makes those names durable. So a blob's final name only
 * ever points at durable, whole content — what later checkpoints trust when they find it there —
 * and the manifest written after `commit` names only durable blobs.
 */
export class BlobBatch {
  readonly #staged = new Map<ContentHash, { temporary: string; final: string; replaces: boolean }>();
  /** Stored blobs this batch read back and found intact: reused without reading them again. */
  readonly #verified = new Set<ContentHash>();
  readonly #slices = new TimeSlices();
  /** Shard directories known to exist. */
  readonly #shards = new Set<string>();
  #ready = false;

  constructor(private readonly store: BatchTarget) {}

  /**
   * Stages the content of the open file descriptor `source` (read from its start), returning its hash. One
   * pass: the content is hashed as it is read and the very bytes hashed are written, so a file
   * changing meanwhile can never be stored under another content's hash. `expectedSize` (the
   * size the caller saw) only chooses between reading whole and streaming.
   */
  async put(source: number, expectedSize?: number): Promise<{ hash: ContentHash; size: number }> {
    if (!this.#ready) mkdirSync(this.store.directory, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    this.#ready = true;
    const size = expectedSize ?? fstatSync(source).size;
    if (size > WHOLE_CONTENT_BYTES) return this.#putStreamed(source);
    await this.#slices.yieldIfDue();
    const content = readFileSync(source);
    return { hash: await this.#putContent(content), size: content.length };
  }

  async #putContent(content: Buffer): Promise<ContentHash> {
    const hash = createHash('sha256').update(content).digest('hex');
    const need = await this.#need(hash);
    // Checked again after the wait: another put of the same content may have staged it meanwhile.
    if (need === 'nothing' || this.#staged.has(hash)) return hash;
    const compressed = this.store.compress ? gzipIfItPays(content) : null;
    const final = this.store.finalPath(hash, compressed !== null);
    // Beside its final name: creating thousands of files in one directory costs several times
    // as much as spreading them over the 256 shards (2.5 s against 0.7 s for 5,000 here).
    if (!this.#shards.has(dirname(final))) mkdirSync(dirname(final), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    this.#shards.add(dirname(final));
    const temporary = temporaryNameBeside(final);
    if (compressed) {
      const fd = openSync(temporary, 'wx', OWNER_ONLY_FILE_MODE);
      try {
        this.store.crashPoint?.('blob-file-created');
        writeAllSync(fd, compressed);
      } finally {
        closeSync(fd);
      }
    } else {
      // Raw content keeps its holes (a sparse file stays sparse in the store).
      closeSync(createSparseFileSync(temporary, content, OWNER_ONLY_FILE_MODE));
      this.store.crashPoint?.('blob-file-created');
    }
    this.#staged.set(hash, { temporary, final, replaces: need === 'replace' });
    return hash;
  }

  async #putStreamed(source: number): Promise<{ hash: ContentHash; size: number }> {
    const raw = temporaryNameBeside(join(this.store.directory, 'x'));
    let keep: string | null = null;
    try {
      const hashing = new Hashing();
      const output = new SparseFileStream(raw, OWNER_ONLY_FILE_MODE);
      output.once('open', () => this.store.crashPoint?.('blob-file-created'));
      await pipeline(createReadStream('', { fd: source, start: 0, autoClose: false }), hashing, output);
      const hash = hashing.hash.digest('hex');
      const need = await this.#need(hash);
      if (need === 'nothing') return { hash, size: hashing.bytes };
      const compressed = this.store.compress ? await gzipFileIfItPays(raw, hashing.bytes) : null;
      // Checked again: another put of the same content may have staged it meanwhile.
      if (this.#staged.has(hash)) return { hash, size: hashing.bytes };
      keep = compressed ?? raw;
      this.#staged.set(hash, { temporary: keep, final: this.store.finalPath(hash, compressed !== null), replaces: need === 'replace' });
      return { hash, size: hashing.bytes };
    } finally {
      if (keep !== raw) await rm(raw, { force: true });
    }
  }

  /**
   * What storing `hash` needs: nothing (staged here, or stored intact), `store` (new), or
   * `replace` (stored, corrupted). Dedup verifies what it reuses (issue 34): a stored blob is read
   * back and hashed before a checkpoint names it again, and one that no longer hashes to its name
   * is stored again, replaced at commit — otherwise every later checkpoint of that content would
   * answer 200 and never restore.
   */
  async #need(hash: ContentHash): Promise<'nothing' | 'store' | 'replace'> {
    if (this.#staged.has(hash) || this.#verified.has(hash)) return 'nothing';
    if (!this.store.has(hash)) return 'store';
    if (!(await this.store.intact(hash))) return 'replace';
    this.#verified.add(hash);
    return 'nothing';
  }

  /** Makes every staged blob durable, then durable under its final name. Nothing to do for an empty batch. */
  async commit(): Promise<void> {
    const staged = [...this.#staged.values()];
    if (staged.length === 0) return;
    await syncPaths(this.store.directory, staged.map(({ temporary }) => temporary));
    const shards = new Set<string>();
    for (const { temporary, final, replaces } of staged) {
      if (!this.#shards.has(dirname(final))) mkdirSync(dirname(final), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      this.#shards.add(dirname(final));
      shards.add(dirname(final));
      // A rename may replace a blob a concurrent checkpoint just stored: the same content, and
      // a reader of the old file keeps reading it whole.
      renameSync(temporary, final);
      // A corrupted blob replaced: its copy in the other encoding goes too, or reads could still find it.
      if (replaces) this.store.removeEncoding(hashOfFinal(final), final.endsWith('.gz'));
      this.store.crashPoint?.('blob-renamed');
      await this.#slices.yieldIfDue();
    }
    await syncPaths(this.store.directory, [...shards, this.store.directory]);
    this.#staged.clear();
  }

  /** Removes what was staged and not committed (the checkpoint failed). */
  async discard(): Promise<void> {
    for (const { temporary } of this.#staged.values()) await rm(temporary, { force: true });
    this.#staged.clear();
  }
}

/** The hash a blob's final path (`…/ab/cdef…[.gz]`) names. */
function hashOfFinal(final: string): ContentHash {
  return `${basename(dirname(final))}${basename(final).replace(/\.gz$/, '')}`;
}
