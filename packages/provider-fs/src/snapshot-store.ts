import { randomBytes } from 'node:crypto';
import { hashOfDescriptor } from './blob-batch';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { namesIn, readTextIfPresent, removeFileIfPresent } from './absent-files';
import { BlobStore, type BlobStoreSettings } from './blob-store';
import { fsyncDirectory, writeFileDurably } from './durable-files';
import type { WorkspaceOwner } from '@runtimectl/provider-local';
import { blobsOf, parseManifest, type Manifest } from './manifest';
import { materialise } from './materialise';
import { walkWorkspace, type WalkResult } from './snapshot-walk';
import { DEFAULT_RACY_WINDOW_NS, StatIndex } from './stat-index';
import { ProcessLock } from './process-lock';
import { StoreLock } from './store-lock';
import { OWNER_ONLY_DIRECTORY_MODE } from '@runtimectl/provider-local';

const SNAPSHOT_ID = /^snap_[0-9a-f]{32}$/;
const INDEX_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface SnapshotStoreSettings extends BlobStoreSettings {
  /** The stat index's racily-clean window (tests shrink it). Default 1 s. */
  racyWindowNs?: bigint;
}

export type CheckpointResult = Omit<WalkResult, 'rootMode'> & { snapshotId: string };

/**
 * Snapshots on disk: `<directory>/blobs` (content), `<directory>/manifests/<id>.json` (one per
 * snapshot, written durably after every blob it names is), `<directory>/index/<workspace>.json`
 * (the stat index of each workspace, a cache). Owner-only, all of it (directories 0700, files
 * 0600): it holds every workspace's content and file names, which no other local user may read.
 * What a checkout writes into a workspace keeps the modes the snapshot recorded.
 */
export class SnapshotStore {
  readonly blobs: BlobStore;
  readonly #racyWindowNs: bigint;
  readonly #lock = new StoreLock();
  readonly #processes: ProcessLock;
  #recovery: Promise<void> | undefined;

  constructor(readonly directory: string, settings: SnapshotStoreSettings = {}) {
    this.blobs = new BlobStore(join(directory, 'blobs'), settings);
    this.#racyWindowNs = settings.racyWindowNs ?? DEFAULT_RACY_WINDOW_NS;
    this.#processes = new ProcessLock(join(directory, 'locks'));
  }

  /** Shared use of the store: in this process, then among the processes sharing it. */
  async #shared<T>(work: () => Promise<T>): Promise<T> {
    await this.#recovered();
    return this.#lock.shared(() => this.#processes.shared(work));
  }

  /** The store to itself: no checkpoint or checkout runs in this or another process. */
  async #exclusive<T>(work: () => Promise<T>): Promise<T> {
    await this.#recovered();
    return this.#lock.exclusive(() => this.#processes.exclusive(work));
  }

  /**
   * On this process's first use of the store, with the store to itself (so no live writer's file
   * is taken): removes the temporary files killed writers left — blobs, manifests, indexes — so a
   * SIGKILLed checkpoint's staged content does not wait for some later delete (issue 34).
   */
  #recovered(): Promise<void> {
    this.#recovery ??= this.#lock.exclusive(() =>
      this.#processes.exclusive(async () => {
        await this.blobs.sweepTemporaries();
        for (const directory of ['manifests', 'index']) await removeTemporaries(join(this.directory, directory));
      }),
    );
    this.#recovery.catch(() => {
      this.#recovery = undefined;
    });
    return this.#recovery;
  }

  /**
   * Snapshots the workspace at `root` (a real path), reusing the hashes of files unchanged since
   * `indexName`'s last checkpoint. The manifest becomes visible only after every blob it names is durable.
   */
  checkpoint(root: string, indexName: string, meta: { name?: string; labels: Record<string, string> }): Promise<CheckpointResult> {
    return this.#shared(() => this.#checkpoint(root, indexName, meta));
  }

  async #checkpoint(root: string, indexName: string, meta: { name?: string; labels: Record<string, string> }): Promise<CheckpointResult> {
    const indexPath = this.#indexPath(indexName);
    await mkdir(join(this.directory, 'index'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await mkdir(join(this.directory, 'manifests'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    const index = await StatIndex.load(indexPath, this.#racyWindowNs);
    const startedAtNs = BigInt(Date.now()) * 1_000_000n;
    const batch = this.blobs.batch();
    let walk: WalkResult;
    try {
      walk = await walkWorkspace(root, batch, index);
      await batch.commit();
    } catch (error) {
      await batch.discard().catch(() => undefined);
      throw error;
    }
    const snapshotId = `snap_${randomBytes(16).toString('hex')}`;
    const manifest: Manifest = {
      version: 1,
      snapshotId,
      createdAt: new Date().toISOString(),
      ...(meta.name === undefined ? {} : { name: meta.name }),
      labels: meta.labels,
      rootMode: walk.rootMode,
      entries: walk.entries,
      skipped: walk.skipped,
    };
    await writeFileDurably(this.#manifestPath(snapshotId), JSON.stringify(manifest));
    await index.save(indexPath, startedAtNs);
    return { snapshotId, entries: walk.entries, skipped: walk.skipped, hashedFiles: walk.hashedFiles, reusedFiles: walk.reusedFiles };
  }

  /**
   * Walks the workspace at `root` for its manifest without storing anything (a layered
   * workspace's files stay in its layers): each file hashed, or its hash taken from
   * `indexName`'s stat index, which is saved for the next walk. Returns where the index was saved.
   */
  async describe(root: string, indexName: string): Promise<{ walk: WalkResult; indexPath: string }> {
    const indexPath = this.#indexPath(indexName);
    await mkdir(join(this.directory, 'index'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    const index = await StatIndex.load(indexPath, this.#racyWindowNs);
    const startedAtNs = BigInt(Date.now()) * 1_000_000n;
    const walk = await walkWorkspace(root, { put: hashOfDescriptor }, index);
    await index.save(indexPath, startedAtNs);
    return { walk, indexPath };
  }

  /** Shared use of the store (checkpoints, checkouts), in this process and among those sharing it. */
  shared<T>(work: () => Promise<T>): Promise<T> {
    return this.#shared(work);
  }

  /** The store to itself (garbage collection). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#exclusive(work);
  }

  /** The file hashes `indexName`'s last checkpoint recorded (a cache: an unreadable index knows none). */
  knownHashes(indexName: string): Promise<StatIndex> {
    return StatIndex.load(this.#indexPath(indexName), this.#racyWindowNs);
  }

  /** The snapshot's manifest, or null when there is no such snapshot. */
  async manifest(snapshotId: string): Promise<Manifest | null> {
    if (!SNAPSHOT_ID.test(snapshotId)) return null;
    const text = await readTextIfPresent(this.#manifestPath(snapshotId));
    return text === null ? null : parseManifest(text);
  }

  /**
   * Materialises `manifest` into the empty directory `target` (see `materialise`), every path
   * given to `owner`; with `indexName`, seeds that workspace's stat index from the files written.
   */
  checkout(manifest: Manifest, target: string, indexName?: string, owner?: WorkspaceOwner): Promise<void> {
    return this.#shared(async () => {
      const index = StatIndex.empty(this.#racyWindowNs);
      await materialise(manifest, this.blobs, target, index, owner);
      if (indexName === undefined) return;
      await mkdir(join(this.directory, 'index'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
      await index.save(this.#indexPath(indexName), BigInt(Date.now()) * 1_000_000n);
    });
  }

  /**
   * Deletes the snapshot: its manifest, then (mark and sweep, with the store to itself) every
   * blob no remaining manifest names. Idempotent; false when there was no such snapshot.
   */
  deleteSnapshot(snapshotId: string): Promise<boolean> {
    return this.#exclusive(async () => {
      const deleted = await this.deleteManifest(snapshotId);
      this.blobs.crashPoint?.('manifest-removed');
      await this.#collectGarbage();
      return deleted;
    });
  }

  /**
   * Mark and sweep: removes blobs no manifest names. The caller holds the store exclusively.
   * First forgets (durably) every workspace's stat index that names a blob about to go, so no
   * later checkpoint reuses a removed blob's hash without storing it again; removes what killed
   * writers left in manifests/ and index/. A crash anywhere leaves a store the next one finishes.
   */
  async #collectGarbage(): Promise<number> {
    const keep = new Set<string>();
    for (const file of (await namesIn(join(this.directory, 'manifests'))).filter(isManifestFile)) {
      for (const hash of await this.#blobsNamedBy(join(this.directory, 'manifests', file))) keep.add(hash);
    }
    const indexes = join(this.directory, 'index');
    let forgot = false;
    for (const name of await namesIn(indexes)) {
      const at = join(indexes, name);
      if (isTemporary(name) || (name.endsWith('.json') && !(await StatIndex.namesOnly(at, keep)))) {
        await rm(at, { force: true });
        forgot = true;
      }
    }
    if (forgot) await fsyncDirectory(indexes);
    await removeTemporaries(join(this.directory, 'manifests'));
    return this.blobs.sweep(keep);
  }

  /**
   * The blobs a manifest file names, for marking. One that no longer parses (damaged on disk)
   * keeps every blob its text names — a hash is 64 hex digits wherever it stands — so one bad
   * manifest can neither lose another snapshot's content nor break every delete (issue 34).
   */
  async #blobsNamedBy(path: string): Promise<Iterable<string>> {
    const text = await readTextIfPresent(path);
    if (text === null) return [];
    try {
      return blobsOf(parseManifest(text));
    } catch {
      return text.match(/[0-9a-f]{64}/g) ?? [];
    }
  }

  /** Removes the snapshot's manifest (its blobs stay until garbage collection). Idempotent. */
  async deleteManifest(snapshotId: string): Promise<boolean> {
    if (!SNAPSHOT_ID.test(snapshotId) || !(await removeFileIfPresent(this.#manifestPath(snapshotId)))) return false;
    await fsyncDirectory(join(this.directory, 'manifests'));
    return true;
  }

  /** Every snapshot's manifest that parses (a damaged one is left out, never fatal to the others). */
  async manifests(): Promise<Manifest[]> {
    const files = await namesIn(join(this.directory, 'manifests'));
    const found: Manifest[] = [];
    for (const file of files.filter(isManifestFile).sort()) {
      const manifest = await this.manifest(file.slice(0, -'.json'.length)).catch(() => null);
      if (manifest) found.push(manifest);
    }
    return found;
  }

  /** Forgets a workspace's stat index (its workspace is released). */
  forgetIndex(indexName: string): Promise<void> {
    return StatIndex.remove(this.#indexPath(indexName));
  }

  #manifestPath(snapshotId: string): string {
    return join(this.directory, 'manifests', `${snapshotId}.json`);
  }

  #indexPath(indexName: string): string {
    if (!INDEX_NAME.test(indexName)) throw new TypeError(`not a workspace name: ${indexName}`);
    return join(this.directory, 'index', `${indexName}.json`);
  }
}

/** A temporary file of `temporaryNameBeside`, which a killed writer may leave. */
const isTemporary = (name: string) => name.startsWith('.') && name.endsWith('.tmp');

const isManifestFile = (name: string) => name.endsWith('.json') && !isTemporary(name);

/** Removes the temporary files killed writers left in `directory`. */
async function removeTemporaries(directory: string): Promise<void> {
  for (const name of await namesIn(directory)) if (isTemporary(name)) await rm(join(directory, name), { force: true });
}
