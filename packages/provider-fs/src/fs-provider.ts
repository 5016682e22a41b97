import { join, resolve } from 'node:path';
import {
  ProviderError,
  ProviderSnapshotNotFoundError,
  type BackendAttachRequest,
  type BackendCheckoutRequest,
  type BackendCreateRequest,
  type BackendProviderV1,
  type BackendResource,
  type BackendSnapshotRequest,
  type OwnedResources,
  type ProviderBackend,
  type ProviderSettingInForce,
  type ProviderSnapshot,
  type ReadBytesOptions,
} from '@runtimectl/provider';
import { createLocalProvider, type IsolationInForce, type LocalProvider, type LocalProviderSettings } from '@runtimectl/provider-local';
import type { CrashPointHook } from './crash-points';
import { contentManifestOf } from './content-manifest';
import type { Manifest, SkippedEntry } from './manifest';
import { LayeredSnapshots } from './layers/layered-snapshots';
import { probeOverlay } from './layers/overlay-probe';
import { readViewFile } from './layers/read-view-file';
import { SnapshotCorruptedError } from './materialise';
import { SnapshotStore } from './snapshot-store';
import { readSnapshotFile } from './snapshot-file';
import { BlobCorruptedError } from './blob-store';
import { WorkspaceChangedError } from './snapshot-walk';

export interface FsProviderSettings extends Omit<LocalProviderSettings, 'providerId' | 'keepWorkspaces'> {
  /** Directory of the snapshot store (blobs, manifests, stat indexes). Created when missing. */
  snapshots: string;
  /** gzip blobs where it saves at least 10%. Default true. */
  compress?: boolean;
  /** The stat index's racily-clean window in nanoseconds (tests shrink it). Default 1 s. */
  racyWindowNs?: bigint;
  /**
   * How workspaces and snapshots are kept (docs/provider-fs-layers.md): `copy` (a copy of the
   * files per checkout, content-addressed blobs), `layers` (overlay mounts of sealed layers:
   * checkout is a mount; root and Linux only, refused elsewhere), `auto` (layers where a probe
   * mount works, else copy). Default `copy` while the layers mode is being completed (issue 34).
   */
  snapshotStore?: SnapshotStoreChoice;
  /**
   * Layers mode: a checkpoint whose chain of layers grows longer than this is flattened after it
   * answered (its tree copied once into one layer; docs/provider-fs-layers.md), so mounts and
   * lookups stay bounded. Default 16.
   */
  flattenPastLayers?: number;
  /**
   * Layers mode: told when a flatten failed (the daemon logs it). The checkpoint had answered; its
   * chain stays as it was, one layer longer, and the next checkpoint tries again.
   */
  flattenFailed?: (error: Error) => void;
  /** Layers mode: the crash tests' seam (see crash-points.ts); never set in production. */
  crashPoint?: CrashPointHook;
}

export type SnapshotStoreChoice = 'copy' | 'layers' | 'auto';

/** The snapshot store in force, and why when `auto` fell back to copies. */
export type SnapshotStoreInForce = { mode: 'layers' } | { mode: 'copy'; reason?: string };

/** What `checkpoint` answers: the snapshot, and the special files it did not hold. */
export interface FsSnapshot extends ProviderSnapshot {
  skipped: SkippedEntry[];
}

const PROVIDER_ID = 'fs';
/** Chains of up to 16 layers are mounted as they are; a longer one is flattened. */
const DEFAULT_FLATTEN_PAST_LAYERS = 16;

/**
 * The fs provider: the local provider (the same workspaces, jail, commands, quota and isolation,
 * composed, not copied) plus filesystem snapshots — content-addressed, deduplicated, written
 * crash-safe. Processes do not survive a snapshot: checkout and resume start from files only.
 */
export class FsProvider implements BackendProviderV1 {
  readonly specificationVersion = 'backend-provider-v1' as const;
  readonly providerId = PROVIDER_ID;
  /** Files only: processes do not survive checkout, pause and resume. */
  readonly snapshotKind = 'filesystem' as const;
  /**
   * On by default: verifying a restore (a stat walk against the index checkout wrote, and the
   * Merkle trees) measured 1.05× checkout and 1.07× resume on a quiet machine (bench
   * `verify-restores`), within the 10% allowed; no process survives to change files meanwhile.
   */
  readonly restoreVerification = 'default' as const;
  readonly #local: LocalProvider;
  readonly #store: SnapshotStore;
  readonly #layered: LayeredSnapshots;
  readonly #choice: SnapshotStoreChoice;
  #mode: Promise<SnapshotStoreInForce> | undefined;
  readonly #flattenPast: number;
  /** The flattens started so far, one after the other; what the last one that failed threw. */
  #flattening: Promise<void> = Promise.resolve();
  #flattenFailure: Error | undefined;
  readonly #flattenFailed: ((error: Error) => void) | undefined;

  constructor(settings: FsProviderSettings) {
    if (typeof settings.snapshots !== 'string' || settings.snapshots === '') throw new TypeError('createFsProvider needs a snapshots directory');
    const { snapshots, compress, racyWindowNs, snapshotStore, flattenPastLayers, flattenFailed, crashPoint, ...local } = settings;
    this.#flattenFailed = flattenFailed;
    this.#flattenPast = flattenPastLayers ?? DEFAULT_FLATTEN_PAST_LAYERS;
    if (!Number.isInteger(this.#flattenPast) || this.#flattenPast < 2) throw new TypeError('createFsProvider: flattenPastLayers is an integer of at least 2');
    this.#choice = snapshotStore ?? 'copy';
    if (!['copy', 'layers', 'auto'].includes(this.#choice)) throw new TypeError('createFsProvider: snapshotStore is copy, layers or auto');
    // A backend's manifest reads only the files changed since its last checkpoint (the stat index).
    this.#local = createLocalProvider({
      ...local,
      providerId: PROVIDER_ID,
      // A layered workspace also trusts the stat indexes of the sealed layers it is mounted on.
      knownHashes: async (name) => {
        const own = await this.#store.knownHashes(name);
        return (await this.#layered.isLive(name)) ? this.#layered.knownHashes(name, own) : own;
      },
      // A layered workspace's quota counts what it wrote over its checkpoint, not what it was checked out with.
      quotaTree: async (name) => ((await this.#layered.isLive(name)) ? this.#layered.upperOf(name) : undefined),
    });
    this.#store = new SnapshotStore(resolve(snapshots), {
      ...(compress === undefined ? {} : { compress }),
      ...(racyWindowNs === undefined ? {} : { racyWindowNs }),
    });
    this.#layered = new LayeredSnapshots(resolve(snapshots), crashPoint);
  }

  /**
   * The snapshot store in force, decided once: `copy` as configured, or by a real overlay probe
   * (`layers`, `auto`). Rejects when `layers` was required and this machine cannot do it.
   */
  snapshotStoreMode(): Promise<SnapshotStoreInForce> {
    this.#mode ??= (async (): Promise<SnapshotStoreInForce> => {
      if (this.#choice === 'copy') return { mode: 'copy' };
      const probed = await probeOverlay(join(this.#store.directory, 'probe'));
      if (probed.available) return { mode: 'layers' };
      if (this.#choice === 'layers') throw new ProviderError(PROVIDER_ID, 'start', `the layers snapshot store is not available here: ${probed.reason}`);
      return { mode: 'copy', reason: probed.reason };
    })();
    return this.#mode;
  }

  async #layers(): Promise<boolean> {
    return (await this.snapshotStoreMode()).mode === 'layers';
  }

  /** The local provider this one composes (isolation, workspace usage). */
  get local(): LocalProvider {
    return this.#local;
  }

  /** The isolation its commands get: the composed local provider's (see `LocalProvider.isolation`). */
  isolation(): Promise<IsolationInForce> {
    return this.#local.isolation();
  }

  /** What `GET /providers` shows: the snapshot store (with why `auto` kept copies), then the local provider's isolation and network. */
  async settingsInForce(): Promise<Record<string, ProviderSettingInForce>> {
    const store = await this.snapshotStoreMode();
    return {
      snapshot_store: store.mode === 'copy' && store.reason !== undefined ? { value: 'copy', reason: store.reason } : { value: store.mode },
      // What a layered checkpoint does to processes still running (the copy store re-reads what changes under its walk).
      ...(store.mode === 'layers' ? { jobs_at_checkpoint: await this.#local.jobsAtCheckpoint() } : {}),
      ...(await this.#local.settingsInForce()),
    };
  }

  async create(request: BackendCreateRequest): Promise<ProviderBackend> {
    const backend = await this.#local.create(request);
    if (!(await this.#layers())) return backend;
    const name = indexNameOf(backend.resource) as string;
    try {
      await this.#layered.create(name, await this.#local.workspaceDirectory(backend.resource));
      return backend;
    } catch (error) {
      await this.release({ backendId: request.backendId, resource: backend.resource }).catch(() => undefined);
      throw new ProviderError(PROVIDER_ID, 'create', 'could not mount the workspace', error);
    }
  }

  /** Re-binds to a workspace; a layered one whose mount is gone (a reboot, a crash mid-seal) is mounted again. */
  async attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    const backend = await this.#local.attach(request);
    const name = indexNameOf(backend.resource);
    if (name && (await this.#layered.isLive(name))) {
      try {
        await this.#store.shared(async () => this.#layered.ensureMounted(name, await this.#local.workspaceDirectory(backend.resource)));
      } catch (error) {
        throw new ProviderError(PROVIDER_ID, 'attach', 'could not mount the workspace again', error);
      }
    }
    return backend;
  }

  async release(request: BackendAttachRequest): Promise<void> {
    const name = indexNameOf(request.resource);
    const layered = name !== null && (await this.#layered.isLive(name));
    // A layered workspace is detached first (lazily: its processes may still run), so the local
    // provider removes an empty directory, not the merged view of the layers below it.
    if (layered) await this.#layered.detach(await this.#local.workspaceDirectory(request.resource).catch(() => null));
    await this.#local.release(request);
    if (!name) return;
    if (layered) await this.#layered.release(name);
    await this.#store.forgetIndex(name);
  }

  async checkpoint(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<FsSnapshot> {
    const directory = await this.#local.workspaceDirectory(backend.resource);
    const name = indexNameOf(backend.resource) as string;
    const meta = { ...(request.name === undefined ? {} : { name: request.name }), labels: request.labels };
    try {
      if (await this.#layered.isLive(name)) {
        const { snapshot, top } = await this.#checkpointLayers(backend, directory, name, meta, request.name);
        this.#flattenLater(top);
        return snapshot;
      }
      const result = await this.#store.checkpoint(directory, name, meta);
      return {
        snapshotId: result.snapshotId,
        names: request.name === undefined ? [] : [request.name],
        skipped: result.skipped,
        // From the snapshot's own walk: core records it without walking the workspace again.
        manifest: contentManifestOf(result.entries),
      };
    } catch (error) {
      if (error instanceof WorkspaceChangedError) throw new ProviderError(PROVIDER_ID, 'checkpoint', error.message, error);
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(PROVIDER_ID, 'checkpoint', 'could not write the snapshot', error);
    }
  }

  /**
   * A layered checkpoint: sealed by rename when nothing runs in the workspace (its sandbox
   * stopped), by copy otherwise. Its manifest is a delta — the sealed layer read, over the
   * snapshot below it — so it costs what changed; a workspace whose record does not name that
   * snapshot (made before deltas, or after a crash mid-seal) is walked whole instead (reading
   * only the files changed since its last walk: the stat index). Either way the stat index is
   * kept with the snapshot, for its checkouts. Answers its sealed layer too (`top`).
   */
  async #checkpointLayers(backend: ProviderBackend, directory: string, name: string, meta: { name?: string; labels: Record<string, string> }, snapshotName: string | undefined): Promise<{ snapshot: FsSnapshot; top: string }> {
    return this.#store.shared(async () => {
      const quiesced = await this.#local.stopSandboxIfIdle(backend.resource);
      const seal = () => this.#layered.checkpoint(name, directory, quiesced, meta);
      // Jobs still running are frozen while their upper directory is copied: the layer is one moment of their writes.
      const { record, below, base, sealedTreeAt } = quiesced ? await seal() : await this.#local.whileJobsFrozen(backend.resource, 'checkpoint', seal);
      // Layers keep FIFOs and sockets as they are: nothing was skipped.
      const snapshot = { snapshotId: record.snapshotId, names: snapshotName === undefined ? [] : [snapshotName], skipped: [] };
      if (base !== undefined) {
        const { removed, changed } = await this.#layered.delta(record.top, below, sealedTreeAt);
        return { snapshot: { ...snapshot, manifestDelta: { baseSnapshotId: base, removed, changed } }, top: record.top };
      }
      const { walk, indexPath } = await this.#store.describe(directory, name);
      await this.#layered.indexes.keep(record.top, indexPath);
      return { snapshot: { ...snapshot, manifest: contentManifestOf(walk.entries) }, top: record.top };
    });
  }

  /**
   * Flattens layer `top` once the checkpoint that sealed it has answered, when its chain is
   * longer than `flattenPastLayers` (one flatten at a time, each under the store's shared lock,
   * as a checkpoint). A failed flatten leaves the chain as it was (the next checkpoint's tries
   * again) and is kept for `flattened()`.
   */
  #flattenLater(top: string): void {
    this.#flattening = this.#flattening.then(async () => {
      try {
        await this.#store.shared(() => this.#layered.flattenIfLonger(top, this.#flattenPast));
      } catch (error) {
        this.#flattenFailure = error instanceof Error ? error : new Error(String(error));
        try {
          this.#flattenFailed?.(this.#flattenFailure);
        } catch {}
      }
    });
  }

  /** Resolves once every flatten started so far has ended, with what the last failed one threw (undefined: none failed). */
  async flattened(): Promise<Error | undefined> {
    await this.#flattening;
    return this.#flattenFailure;
  }

  async checkout(request: BackendCheckoutRequest): Promise<ProviderBackend> {
    const layered = await this.#layered.snapshot(request.snapshotId);
    const manifest = layered ? null : await this.#store.manifest(request.snapshotId);
    if (!layered && !manifest) throw new ProviderSnapshotNotFoundError(PROVIDER_ID, 'checkout', 'the snapshot no longer exists');
    const backend = await this.#local.create(request);
    try {
      const directory = await this.#local.workspaceDirectory(backend.resource);
      const name = indexNameOf(backend.resource) ?? undefined;
      if (layered && name) {
        await this.#store.shared(async () => this.#layered.checkout(request.snapshotId, name, directory, await this.#local.workspaceOwner()));
      } else {
        await this.#store.checkout(manifest as Manifest, directory, name, await this.#local.workspaceOwner());
      }
      return backend;
    } catch (error) {
      await this.release({ backendId: request.backendId, resource: backend.resource }).catch(() => undefined);
      if (error instanceof SnapshotCorruptedError) throw new ProviderError(PROVIDER_ID, 'checkout', error.message, error);
      throw new ProviderError(PROVIDER_ID, 'checkout', 'could not materialise the snapshot', error);
    }
  }

  /** One file of a snapshot, without materialising the snapshot: from the blob store, or a read-only view of its layers. */
  async readSnapshotFile(snapshotId: string, path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    if (await this.#layered.snapshot(snapshotId)) {
      const content = await this.#store.shared(() => this.#layered.withView(snapshotId, async (root) => readViewFile(root, path, options.maxBytes)));
      if (content) return content;
    }
    const manifest = await this.#store.manifest(snapshotId);
    if (!manifest) throw new ProviderSnapshotNotFoundError(PROVIDER_ID, 'read_snapshot_file', 'the snapshot no longer exists');
    try {
      return await readSnapshotFile(manifest, this.#store.blobs, path, options.maxBytes);
    } catch (error) {
      if (error instanceof BlobCorruptedError) throw new ProviderError(PROVIDER_ID, 'read_snapshot_file', 'the snapshot is corrupted', error);
      throw error;
    }
  }

  /**
   * Layers: a workspace just checked out is exactly its snapshot when its mount names the
   * snapshot's chain and it wrote nothing yet (`LayeredSnapshots.isExactly`), so core verifies
   * the restore without a manifest: constant time. Copies are verified by their manifest.
   */
  async restoredExactly(backend: ProviderBackend, snapshotId: string): Promise<boolean> {
    const name = indexNameOf(backend.resource);
    if (name === null || !(await this.#layered.isLive(name))) return false;
    return this.#layered.isExactly(name, snapshotId, await this.#local.workspaceDirectory(backend.resource));
  }

  /** Removes the snapshot's manifest (or layered record), then the blobs and layers nothing else needs. */
  async deleteSnapshot(snapshotId: string): Promise<{ deleted: boolean }> {
    if (await this.#layered.snapshot(snapshotId)) {
      return this.#store.exclusive(async () => {
        const deleted = await this.#layered.deleteRecord(snapshotId);
        await this.#layered.collect();
        return { deleted };
      });
    }
    return { deleted: await this.#store.deleteSnapshot(snapshotId) };
  }

  async listOwnedResources(installationId: string): Promise<OwnedResources> {
    const { backends } = await this.#local.listOwnedResources(installationId);
    const snapshots = (await this.#store.manifests())
      .filter((manifest) => manifest.labels.runtimectl_installation === installationId)
      .map((manifest) => ({ snapshotId: manifest.snapshotId }));
    for (const record of await this.#layered.snapshots()) if (record.labels.runtimectl_installation === installationId) snapshots.push({ snapshotId: record.snapshotId });
    return { backends, snapshots };
  }
}

/** The workspace name in a resource (the local provider's `{workspace}`), which names its stat index. */
function indexNameOf(resource: BackendResource): string | null {
  const name = resource.workspace;
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) ? name : null;
}

/** Creates the fs provider. Throws `TypeError` for a missing root or snapshots directory. */
export function createFsProvider(settings: FsProviderSettings): FsProvider {
  return new FsProvider(settings);
}
