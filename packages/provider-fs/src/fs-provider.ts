import { resolve } from 'node:path';
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
  type ProviderSnapshot,
  type ReadBytesOptions,
} from '@runtimectl/provider';
import { createLocalProvider, type IsolationInForce, type LocalProvider, type LocalProviderSettings } from '@runtimectl/provider-local';
import { contentManifestOf } from './content-manifest';
import type { SkippedEntry } from './manifest';
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
}

/** What `checkpoint` answers: the snapshot, and the special files it did not hold. */
export interface FsSnapshot extends ProviderSnapshot {
  skipped: SkippedEntry[];
}

const PROVIDER_ID = 'fs';

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

  constructor(settings: FsProviderSettings) {
    if (typeof settings.snapshots !== 'string' || settings.snapshots === '') throw new TypeError('createFsProvider needs a snapshots directory');
    const { snapshots, compress, racyWindowNs, ...local } = settings;
    // A backend's manifest reads only the files changed since its last checkpoint (the stat index).
    this.#local = createLocalProvider({ ...local, providerId: PROVIDER_ID, knownHashes: (name) => this.#store.knownHashes(name) });
    this.#store = new SnapshotStore(resolve(snapshots), {
      ...(compress === undefined ? {} : { compress }),
      ...(racyWindowNs === undefined ? {} : { racyWindowNs }),
    });
  }

  /** The local provider this one composes (isolation, workspace usage). */
  get local(): LocalProvider {
    return this.#local;
  }

  /** The isolation its commands get: the composed local provider's (see `LocalProvider.isolation`). */
  isolation(): Promise<IsolationInForce> {
    return this.#local.isolation();
  }

  create(request: BackendCreateRequest): Promise<ProviderBackend> {
    return this.#local.create(request);
  }

  attach(request: BackendAttachRequest): Promise<ProviderBackend> {
    return this.#local.attach(request);
  }

  async release(request: BackendAttachRequest): Promise<void> {
    await this.#local.release(request);
    const name = indexNameOf(request.resource);
    if (name) await this.#store.forgetIndex(name);
  }

  async checkpoint(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<FsSnapshot> {
    const directory = await this.#local.workspaceDirectory(backend.resource);
    const name = indexNameOf(backend.resource) as string;
    try {
      const result = await this.#store.checkpoint(directory, name, { ...(request.name === undefined ? {} : { name: request.name }), labels: request.labels });
      return {
        snapshotId: result.snapshotId,
        names: request.name === undefined ? [] : [request.name],
        skipped: result.skipped,
        // From the snapshot's own walk: core records it without walking the workspace again.
        manifest: contentManifestOf(result.entries),
      };
    } catch (error) {
      if (error instanceof WorkspaceChangedError) throw new ProviderError(PROVIDER_ID, 'checkpoint', error.message, error);
      throw new ProviderError(PROVIDER_ID, 'checkpoint', 'could not write the snapshot', error);
    }
  }

  async checkout(request: BackendCheckoutRequest): Promise<ProviderBackend> {
    const manifest = await this.#store.manifest(request.snapshotId);
    if (!manifest) throw new ProviderSnapshotNotFoundError(PROVIDER_ID, 'checkout', 'the snapshot no longer exists');
    const backend = await this.#local.create(request);
    try {
      const directory = await this.#local.workspaceDirectory(backend.resource);
      await this.#store.checkout(manifest, directory, indexNameOf(backend.resource) ?? undefined, await this.#local.workspaceOwner());
      return backend;
    } catch (error) {
      await this.#local.release({ backendId: request.backendId, resource: backend.resource }).catch(() => undefined);
      if (error instanceof SnapshotCorruptedError) throw new ProviderError(PROVIDER_ID, 'checkout', error.message, error);
      throw new ProviderError(PROVIDER_ID, 'checkout', 'could not materialise the snapshot', error);
    }
  }

  /** One file of a snapshot, from the blob store, without materialising the snapshot. */
  async readSnapshotFile(snapshotId: string, path: string, options: ReadBytesOptions = {}): Promise<Uint8Array> {
    const manifest = await this.#store.manifest(snapshotId);
    if (!manifest) throw new ProviderSnapshotNotFoundError(PROVIDER_ID, 'read_snapshot_file', 'the snapshot no longer exists');
    try {
      return await readSnapshotFile(manifest, this.#store.blobs, path, options.maxBytes);
    } catch (error) {
      if (error instanceof BlobCorruptedError) throw new ProviderError(PROVIDER_ID, 'read_snapshot_file', 'the snapshot is corrupted', error);
      throw error;
    }
  }

  /** Removes the snapshot's manifest, then the blobs no other snapshot names. */
  async deleteSnapshot(snapshotId: string): Promise<{ deleted: boolean }> {
    return { deleted: await this.#store.deleteSnapshot(snapshotId) };
  }

  async listOwnedResources(installationId: string): Promise<OwnedResources> {
    const { backends } = await this.#local.listOwnedResources(installationId);
    const snapshots = (await this.#store.manifests())
      .filter((manifest) => manifest.labels.runtimectl_installation === installationId)
      .map((manifest) => ({ snapshotId: manifest.snapshotId }));
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
