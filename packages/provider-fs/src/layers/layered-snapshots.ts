import { randomBytes } from 'node:crypto';
import { chmod, chown, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { namesIn, readJsonIfPresent, removeFileIfPresent } from '../absent-files';
import { join } from 'node:path';
import { OWNER_ONLY_DIRECTORY_MODE, removeTree, type KnownHashes, type WorkspaceOwner } from '@runtimectl/provider-local';
import type { CrashPointHook } from '../crash-points';
import { fsyncDirectory, replaceFile, writeFileDurably } from '../durable-files';
import { EMPTY_LAYER, LayerStore, newLayerId } from './layer-store';
import { layerDelta, type LayerDelta } from './layer-delta';
import { isMountPoint, overlayOptionsAt } from './mount-table';
import { ChainViews } from './chain-views';
import { LayerIndexes } from './layer-indexes';
import { mountOverlay, unmount } from './overlay-mount';

const SNAPSHOT_ID = /^snap_[0-9a-f]{32}$/;
const WORKSPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A layered snapshot: its top layer (the chain below follows from the layers' records). */
export interface LayeredSnapshotRecord {
  snapshotId: string;
  top: string;
  createdAt: string;
  name?: string;
  labels: Record<string, string>;
}

/**
 * A live workspace's record: the top of the chain its upper directory sits on, and while a seal
 * by rename runs, the layer it is making (what start-up finishes or undoes after a crash).
 */
interface LiveState {
  top: string;
  sealing?: string;
  /**
   * The snapshot whose tree `top` is (null: the empty chain of a fresh workspace): the base of
   * the manifest delta of the next layer sealed over it. Absent in records written before deltas.
   */
  base?: string | null;
  /** The chain the workspace is mounted on (written before it is mounted): kept by `collect` even once `top`'s chain is flattened. */
  mounted?: string[];
}

/** A checkpoint's new snapshot, with what its manifest delta needs: the layer it was sealed over and that layer's snapshot. */
export interface SealedCheckpoint {
  record: LayeredSnapshotRecord;
  below: string;
  /** The snapshot whose tree `below` is (null: the empty chain); undefined when the workspace's record does not say. */
  base: string | null | undefined;
  /**
   * Where the new snapshot's tree can be read as it is without mounting it: the workspace, when
   * sealed by rename (mounted again over the new layer with an empty upper, nothing running in
   * it, the runtime's lock held); undefined when sealed by copy (its processes may be writing).
   */
  sealedTreeAt: string | undefined;
}

/**
 * The layers mode of the fs provider (docs/provider-fs-layers.md): snapshots are chains of
 * sealed overlay layers, a live workspace is an overlay mount of its chain under its own upper
 * directory (`<directory>/live/<workspace>/`). Checkout is a mount; a checkpoint of a workspace
 * where nothing runs renames the upper directory into a new layer (nothing is copied), one with
 * processes running copies the upper directory (`cp -a`: what changed since its last layer).
 * Callers hold the store's lock (shared to checkpoint and check out, exclusive to collect).
 */
export class LayeredSnapshots {
  readonly layers: LayerStore;
  /** The stat indexes the sealed layers keep of their files. */
  readonly indexes: LayerIndexes;
  readonly #views: ChainViews;

  constructor(
    readonly directory: string,
    /** The crash tests' seam (see crash-points.ts). */
    private readonly crashPoint?: CrashPointHook,
  ) {
    this.layers = new LayerStore(directory, crashPoint);
    this.indexes = new LayerIndexes(this.layers);
    this.#views = new ChainViews(directory, this.layers);
  }

  /** Mounts a fresh workspace (the empty chain) at `target`, a directory whose owner and mode the upper root takes. */
  async create(name: string, target: string): Promise<void> {
    await this.layers.ensureEmpty();
    await this.#mountLive(name, target, { top: EMPTY_LAYER, base: null }, await lstat(target));
  }

  /** Mounts snapshot `snapshotId`'s chain at `target` under a new upper directory owned by `owner`. */
  async checkout(snapshotId: string, name: string, target: string, owner: WorkspaceOwner | undefined): Promise<void> {
    const record = await this.snapshot(snapshotId);
    if (!record) throw new Error('the snapshot no longer exists');
    const root = await lstat(this.layers.absoluteRootOf(record.top));
    await this.#mountLive(name, target, { top: record.top, base: snapshotId }, { mode: root.mode, uid: owner?.uid ?? root.uid, gid: owner?.gid ?? root.gid });
  }

  /**
   * Mounts workspace `name` again where it is not mounted (after a reboot, or a crash during a
   * seal, which this finishes or undoes first). A no-op for a mounted workspace.
   */
  async ensureMounted(name: string, target: string): Promise<void> {
    if (await isMountPoint(target)) return;
    const state = await this.#state(name);
    if (!state) throw new Error('the layered workspace has no record');
    const live = this.#liveDir(name);
    if (state.sealing !== undefined) {
      const sealed = await this.layers.record(state.sealing);
      const renamed = sealed !== null && (await exists(this.layers.absoluteRootOf(state.sealing)));
      if (renamed) {
        state.top = state.sealing;
        delete state.base; // which snapshot the sealed layer became is not known: the next checkpoint walks
        await mkdir(join(live, 'upper'), { mode: (await lstat(this.layers.absoluteRootOf(state.top))).mode & 0o7777 });
      } else if (sealed) await this.layers.remove(state.sealing);
      delete state.sealing;
      await this.#writeState(name, state);
    }
    await this.#mount(name, target, state.top);
  }

  /**
   * Seals the workspace's writes as a new snapshot. `quiesced`: nothing holds the workspace (its
   * sandbox stopped, no process running), so the upper directory is renamed into a layer and the
   * workspace mounted again over it; otherwise the upper directory is copied into a new layer,
   * and the mount left as it is.
   */
  async checkpoint(name: string, target: string, quiesced: boolean, meta: { name?: string; labels: Record<string, string> }): Promise<SealedCheckpoint> {
    const state = await this.#state(name);
    if (!state) throw new Error('the layered workspace has no record');
    const live = this.#liveDir(name);
    const snapshotId = `snap_${randomBytes(16).toString('hex')}`;
    let top: string | undefined;
    if (quiesced) top = await this.#sealByRename(name, target, state, snapshotId);
    const sealedTreeAt = top === undefined ? undefined : target;
    if (top === undefined) {
      top = (await this.layers.sealByCopy(join(live, 'upper'), state.top)).id;
      this.crashPoint?.('upper-copied');
    }
    const record: LayeredSnapshotRecord = {
      snapshotId,
      top,
      createdAt: new Date().toISOString(),
      ...(meta.name === undefined ? {} : { name: meta.name }),
      labels: meta.labels,
    };
    await mkdir(join(this.directory, 'layered'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await writeFileDurably(this.#snapshotPath(record.snapshotId), JSON.stringify(record));
    return { record, below: state.top, base: 'base' in state ? state.base : undefined, sealedTreeAt };
  }

  /**
   * The manifest delta of layer `top`, sealed over `below` (see layerDelta), with the layer's stat
   * index written as its files are hashed: reads the layer, and where it has a base, the base
   * chain's layers and the new tree — at `sealedTreeAt` when given, else through a read-only
   * mount of the new chain.
   */
  async delta(top: string, below: string, sealedTreeAt?: string): Promise<LayerDelta> {
    const layerRoot = this.layers.absoluteRootOf(top);
    const index = this.indexes.writer(top);
    try {
      let delta: LayerDelta;
      if (below === EMPTY_LAYER) delta = await layerDelta(layerRoot, null, index);
      else {
        const lowers = (await this.layers.chain(below)).map((id) => this.layers.absoluteRootOf(id));
        const read = (newTree: string) => layerDelta(layerRoot, { newTree, lowers }, index);
        delta = await (sealedTreeAt === undefined ? this.#views.once(top, read) : read(sealedTreeAt));
      }
      await index.finish();
      return delta;
    } catch (error) {
      await index.abort();
      throw error;
    }
  }

  /**
   * Seals the upper directory by renaming it into a layer over the workspace's top (the tree of
   * snapshot `snapshotId` from now on), and mounts the workspace again over that layer with an
   * empty upper directory. The layer is written ahead in the workspace's record (a crash is finished or undone by `ensureMounted`). Undefined when the
   * mount could not be taken away (something still holds it): the caller copies instead.
   */
  async #sealByRename(name: string, target: string, state: LiveState, snapshotId: string): Promise<string | undefined> {
    const live = this.#liveDir(name);
    const root = await lstat(join(live, 'upper'));
    const below = state.top;
    const sealing = newLayerId();
    await this.#writeState(name, { ...state, sealing });
    this.crashPoint?.('seal-written-ahead');
    try {
      await unmount(target);
    } catch {
      await this.#writeState(name, state);
      return undefined;
    }
    const top = (await this.layers.sealByRename(join(live, 'upper'), below, sealing)).id;
    this.crashPoint?.('upper-renamed');
    await this.#writeState(name, { top, base: snapshotId });
    await mkdir(join(live, 'upper'), { mode: root.mode & 0o7777 });
    await chmod(join(live, 'upper'), root.mode & 0o7777);
    await chown(join(live, 'upper'), root.uid, root.gid);
    await this.#mount(name, target, top);
    this.crashPoint?.('workspace-remounted');
    return top;
  }

  /**
   * Flattens layer `top` when its chain is longer than `longest` layers (see LayerStore.flatten:
   * its tree, read through a read-only mount of the chain, copied once into a layer over the
   * empty one). True when it did.
   */
  async flattenIfLonger(top: string, longest: number): Promise<boolean> {
    if ((await this.layers.chain(top)).length <= longest) return false;
    await this.#views.once(top, (tree) => this.layers.flatten(top, tree));
    return true;
  }

  /**
   * Whether workspace `name`, mounted at `target`, is exactly snapshot `snapshotId` as it stands:
   * the kernel's mount there names that snapshot's chain of sealed layers, in order, over the
   * workspace's own writable layer, and that layer holds nothing yet. Sealed layers are never
   * written (never mounted writable), so such a workspace holds the very files hashed when each
   * layer was sealed: a restore verified without reading them.
   */
  async isExactly(name: string, snapshotId: string, target: string): Promise<boolean> {
    const snapshot = await this.snapshot(snapshotId);
    const options = snapshot ? await overlayOptionsAt(target) : null;
    if (!snapshot || !options) return false;
    const chain = (await this.layers.chain(snapshot.top)).map((id) => this.layers.rootOf(id));
    if (options.get('lowerdir') !== chain.join(':') || options.get('upperdir') !== join('live', name, 'upper')) return false;
    return (await readdir(this.upperOf(name)).catch(() => [undefined])).length === 0;
  }

  /** Workspace `name`'s upper directory: what it wrote over its chain. */
  upperOf(name: string): string {
    return join(this.#liveDir(name), 'upper');
  }

  /** Whether workspace `name` is a layered one (it has a live record). */
  async isLive(name: string): Promise<boolean> {
    return WORKSPACE_NAME.test(name) && (await this.#state(name)) !== null;
  }

  /** Detaches a workspace's mount at `target` (lazily: its processes may still run; the tree goes with the last of them). */
  async detach(target: string | null): Promise<void> {
    if (target !== null && (await isMountPoint(target))) await unmount(target, { lazy: true });
  }

  /** Removes workspace `name`'s upper layer and record (detached, its processes gone). */
  async release(name: string): Promise<void> {
    await removeTree(this.#liveDir(name));
  }

  /** The file hashes a walk of workspace `name` may trust without reading them: its own index's (`own`), else its chain's layers' (`LayerIndexes`). */
  async knownHashes(name: string, own: KnownHashes): Promise<KnownHashes> {
    const state = await this.#state(name);
    return this.indexes.knownHashes(state === null ? [] : (state.mounted ?? (await this.layers.chain(state.top))), own);
  }

  /**
   * Runs `read` on a read-only mount of the snapshot's tree (as its checkouts see it), kept
   * mounted a while for the reads that follow. Null when there is no such snapshot.
   */
  async withView<T>(snapshotId: string, read: (root: string) => Promise<T>): Promise<T | null> {
    const record = await this.snapshot(snapshotId);
    if (!record) return null;
    return this.#views.cached(record.top, read);
  }

  /** Removes the snapshot's record (its layers stay until `collect`). False when there was none. */
  async deleteRecord(snapshotId: string): Promise<boolean> {
    if (!SNAPSHOT_ID.test(snapshotId) || !(await removeFileIfPresent(this.#snapshotPath(snapshotId)))) return false;
    await rm(this.#snapshotPath(snapshotId).replace(/\.json$/, '.index'), { force: true });
    await fsyncDirectory(join(this.directory, 'layered'));
    return true;
  }

  /**
   * Removes every layer no snapshot and no live workspace needs (neither names it nor a layer
   * above it), and the read-only views a crash left. With the store to itself.
   */
  async collect(): Promise<number> {
    await this.#views.sweep();
    const needed = new Set<string>([EMPTY_LAYER]);
    const tops = [...(await this.snapshots()).map((record) => record.top), ...(await this.#liveTops())];
    for (const top of tops) for (const id of await this.layers.needed(top).catch(() => [top])) needed.add(id);
    let removed = 0;
    for (const id of await this.layers.ids()) {
      if (needed.has(id)) continue;
      await this.layers.remove(id);
      removed++;
    }
    return removed;
  }

  /** The snapshot's record, or null. */
  async snapshot(snapshotId: string): Promise<LayeredSnapshotRecord | null> {
    if (!SNAPSHOT_ID.test(snapshotId)) return null;
    return readJsonIfPresent<LayeredSnapshotRecord>(this.#snapshotPath(snapshotId));
  }

  /** Every layered snapshot's record that reads (a damaged one is left out). */
  async snapshots(): Promise<LayeredSnapshotRecord[]> {
    const records: LayeredSnapshotRecord[] = [];
    for (const file of await namesIn(join(this.directory, 'layered'))) {
      if (!file.endsWith('.json') || file.startsWith('.')) continue;
      const record = await this.snapshot(file.slice(0, -'.json'.length)).catch(() => null);
      if (record) records.push(record);
    }
    return records;
  }

  async #mountLive(name: string, target: string, state: LiveState, root: { mode: number; uid: number; gid: number }): Promise<void> {
    const live = this.#liveDir(name);
    await mkdir(join(this.directory, 'live'), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await mkdir(live, { mode: OWNER_ONLY_DIRECTORY_MODE });
    await mkdir(join(live, 'upper'));
    await chmod(join(live, 'upper'), root.mode & 0o1777);
    await chown(join(live, 'upper'), root.uid, root.gid);
    await this.#writeState(name, state);
    this.crashPoint?.('live-recorded');
    await this.#mount(name, target, state.top);
    this.crashPoint?.('live-mounted');
  }

  async #mount(name: string, target: string, top: string): Promise<void> {
    const live = this.#liveDir(name);
    await rm(join(live, 'work'), { recursive: true, force: true });
    await mkdir(join(live, 'work'));
    const chain = await this.layers.chain(top);
    // Not made durable: it matters while the mount lasts, and a power loss takes both.
    const state = await this.#state(name);
    if (state) await replaceFile(join(live, 'state.json'), JSON.stringify({ ...state, mounted: chain }));
    await mountOverlay({ cwd: this.directory, lowers: chain.map((id) => this.layers.rootOf(id)), upper: join('live', name, 'upper'), work: join('live', name, 'work'), target });
  }

  #state(name: string): Promise<LiveState | null> {
    return readJsonIfPresent<LiveState>(join(this.#liveDir(name), 'state.json'));
  }

  async #writeState(name: string, state: LiveState): Promise<void> {
    await replaceFile(join(this.#liveDir(name), 'state.json'), JSON.stringify(state));
    await fsyncDirectory(this.#liveDir(name));
  }

  async #liveTops(): Promise<string[]> {
    const tops: string[] = [];
    for (const name of await namesIn(join(this.directory, 'live'))) {
      if (!WORKSPACE_NAME.test(name)) continue;
      const state = await this.#state(name).catch(() => null);
      if (state) tops.push(state.top, ...(state.sealing ? [state.sealing] : []), ...(state.mounted ?? []));
    }
    return tops;
  }

  #liveDir(name: string): string {
    if (!WORKSPACE_NAME.test(name)) throw new TypeError(`not a workspace name: ${name}`);
    return join(this.directory, 'live', name);
  }

  #snapshotPath(snapshotId: string): string {
    return join(this.directory, 'layered', `${snapshotId}.json`);
  }
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null)) !== null;
}
