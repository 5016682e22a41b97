import { closeSync, openSync, type BigIntStats } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { OWNER_ONLY_FILE_MODE } from '@runtimectl/provider-local';

/** What the index compares of a file's stat: git's index keeps about as much. */
export type FileStamp = Pick<BigIntStats, 'size' | 'mtimeNs' | 'ctimeNs' | 'ino'>;

import type { ContentHash } from './blob-store';
import { replaceFile, temporaryNameBeside, writeAllSync } from './durable-files';

/** Sealed files a layer's index writer holds before it writes them out. */
const SEALED_PER_WRITE = 2_000;

interface IndexedFile {
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  hash: ContentHash;
  /** Written by a checkout, before any command could touch the workspace: the racy rule does not apply. */
  written?: true;
}

/**
 * How close to the index's writing a change may be for its stat to be trusted (git's "racily
 * clean" rule): a file modified within a timestamp tick of being hashed could change again
 * with the same stat, so it is hashed again next time. Timestamps tick by up to ~10 ms.
 */
export const DEFAULT_RACY_WINDOW_NS = 1_000_000_000n;

/**
 * A workspace's file hashes keyed by (path, size, mtime, ctime, inode), as git's index: a file
 * whose stat is unchanged since the last checkpoint is not read again. A cache only: a lost or
 * unreadable index costs a rehash, never a wrong snapshot.
 */
export class StatIndex {
  readonly #previous: Map<string, IndexedFile>;
  readonly #previousAtNs: bigint;
  readonly #next = new Map<string, IndexedFile>();

  private constructor(previous: Map<string, IndexedFile>, previousAtNs: bigint, private readonly racyWindowNs: bigint) {
    this.#previous = previous;
    this.#previousAtNs = previousAtNs;
  }

  static async load(path: string, racyWindowNs = DEFAULT_RACY_WINDOW_NS): Promise<StatIndex> {
    try {
      const stored = JSON.parse(await readFile(path, 'utf8')) as { indexedAtNs: string; files: Record<string, IndexedFile> };
      return new StatIndex(new Map(Object.entries(stored.files)), BigInt(stored.indexedAtNs), racyWindowNs);
    } catch {
      return new StatIndex(new Map(), 0n, racyWindowNs);
    }
  }

  /** The hash recorded for `path` when its stat is unchanged and was not racily recent. */
  known(path: string, info: FileStamp): ContentHash | null {
    const entry = this.#previous.get(path);
    if (!entry || !sameStat(entry, info)) return null;
    if (entry.written) return entry.hash;
    if (info.ctimeNs >= this.#previousAtNs - this.racyWindowNs || info.mtimeNs >= this.#previousAtNs - this.racyWindowNs) return null;
    return entry.hash;
  }

  /** Records `path`'s hash under the stat it had when it was read (before reading). */
  record(path: string, info: FileStamp, hash: ContentHash): void {
    this.#next.set(path, indexedFile(info, hash));
  }

  /**
   * Records a file a checkout just wrote with `hash`'s content, under its stat after the write.
   * No command runs in a workspace being checked out, so the stat cannot be racily clean: any
   * later write changes its ctime (and mtime), and the next checkpoint reads the file again.
   */
  recordWritten(path: string, info: FileStamp, hash: ContentHash): void {
    this.record(path, info, hash);
    (this.#next.get(path) as IndexedFile).written = true;
  }

  /** An index with nothing recorded yet (a checkout's, seeded as it writes). */
  static empty(racyWindowNs = DEFAULT_RACY_WINDOW_NS): StatIndex {
    return new StatIndex(new Map(), 0n, racyWindowNs);
  }

  /**
   * Replaces the stored index with the paths recorded in this walk, as of `startedAtNs` (the
   * walk's start). Not fsynced: a cache a crash may lose (costing a rehash), written atomically.
   */
  async save(path: string, startedAtNs: bigint): Promise<void> {
    await replaceFile(path, JSON.stringify({ indexedAtNs: String(startedAtNs), files: Object.fromEntries(this.#next) }));
  }

  /** Whether every hash the index at `path` names is in `keep` (an unreadable index names none: it is never used). */
  static async namesOnly(path: string, keep: ReadonlySet<ContentHash>): Promise<boolean> {
    const index = await StatIndex.load(path);
    return [...index.#previous.values()].every(({ hash }) => keep.has(hash));
  }

  static async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }
}

/**
 * The index of a sealed layer's files, written as they are hashed: each recorded as written (a
 * sealed layer never changes: a later write to one of its files is a copy up into a workspace's
 * upper directory, with a new ctime, so the stat never matches again). The same document `save`
 * writes, put in a temporary file a slice of entries at a time and renamed into place by
 * `finish`, so a layer of a million files (a document of 150 MB) is never one string nor one
 * array in memory. Costs the layer's files, not the workspace's. Not fsynced: a cache a crash may
 * lose (costing a rehash), written atomically.
 */
export class SealedIndexWriter {
  readonly #temporary: string;
  readonly #fd: number;
  #pending: string[] = [];
  #first = true;

  constructor(private readonly path: string) {
    this.#temporary = temporaryNameBeside(path);
    this.#fd = openSync(this.#temporary, 'wx', OWNER_ONLY_FILE_MODE);
    this.#write('{"indexedAtNs":"0","files":{');
  }

  /** Records a sealed file (its stamp as sealed, its content hash). */
  add(file: string, info: FileStamp, hash: ContentHash): void {
    this.#pending.push(`${this.#first ? '' : ','}${JSON.stringify(file)}:${JSON.stringify({ ...indexedFile(info, hash), written: true })}`);
    this.#first = false;
    if (this.#pending.length >= SEALED_PER_WRITE) this.#flush();
  }

  /** Writes what is left and puts the index in place. */
  async finish(): Promise<void> {
    this.#flush();
    this.#write('}}');
    closeSync(this.#fd);
    await rename(this.#temporary, this.path);
  }

  /** Drops the index written so far (the layer's delta failed). */
  async abort(): Promise<void> {
    closeSync(this.#fd);
    await rm(this.#temporary, { force: true });
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    this.#write(this.#pending.join(''));
    this.#pending = [];
  }

  #write(text: string): void {
    writeAllSync(this.#fd, Buffer.from(text));
  }
}

/** A file's entry in an index: its stamp as strings (BigInts do not go through JSON), its hash. */
function indexedFile(info: FileStamp, hash: ContentHash): IndexedFile {
  return { size: String(info.size), mtimeNs: String(info.mtimeNs), ctimeNs: String(info.ctimeNs), ino: String(info.ino), hash };
}

function sameStat(entry: IndexedFile, info: FileStamp): boolean {
  return entry.size === String(info.size) && entry.mtimeNs === String(info.mtimeNs) && entry.ctimeNs === String(info.ctimeNs) && entry.ino === String(info.ino);
}
