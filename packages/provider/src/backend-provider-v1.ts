import type { z } from 'zod';
import type { ManifestDelta, ManifestEntry } from './manifest-entry';
import type { ReadBytesOptions } from './operation-types';
import type { ProviderBackend } from './provider-backend';
import type { RestoreVerificationDefault, SkippedPath, SnapshotKind } from './wire-types';

/**
 * JSON that identifies a provider resource (a sandbox id, a directory name). Core persists it
 * with the runtime's binding and hands it back to `attach` and `release`; it never interprets it.
 */
export type BackendResource = { [key: string]: string | number | boolean | null };

/** A provider snapshot made by `checkpoint`. */
export interface ProviderSnapshot {
  snapshotId: string;
  names: string[];
  /** Special files (FIFOs, sockets, devices) in the backend the snapshot does not hold, by workspace path. */
  skipped?: SkippedPath[];
  /**
   * Optional: the content manifest of what the snapshot holds, when the provider computed it
   * while taking the snapshot (provider-fs: from the same walk). Core then records it instead
   * of calling the backend's `manifest()` after the snapshot — one walk instead of two. It must
   * be what `manifest()` would answer for the same tree (provider conformance checks it).
   */
  manifest?: ManifestEntry[];
  /**
   * Optional, instead of `manifest`: what changed since an earlier snapshot (provider-fs layers:
   * the sealed layer is the change). Core applies it to the manifest it recorded for the base
   * snapshot — on the runtime's head checkpoint or one of its ancestors — so recording the new
   * manifest costs what changed; when it has no such manifest it calls `manifest()` instead.
   * Applied, it must be what `manifest()` would answer for the same tree.
   */
  manifestDelta?: ManifestDelta;
}

/** A setting a provider chose for this machine: its value, and why when it is not what was asked. */
export interface ProviderSettingInForce {
  value: string;
  reason?: string;
}

export interface BackendCreateRequest {
  /** Core's id for the backend (`bkd_<32hex>`); providers may use it to name resources. */
  backendId: string;
  runtimeId: string;
  /** Per-runtime options, already validated by `runtimeOptionsSchema`. */
  options: Record<string, unknown>;
  /** Ownership labels (installation, runtime, backend) to attach where the provider can. */
  labels: Record<string, string>;
}

export interface BackendCheckoutRequest extends BackendCreateRequest {
  /** The snapshot to start from; made by this provider's `checkpoint`. */
  snapshotId: string;
}

export interface BackendAttachRequest {
  backendId: string;
  resource: BackendResource;
}

/** What `checkpoint` is asked for. */
export interface BackendSnapshotRequest {
  /** The checkpoint's name, when the caller gave one (not unique: never use it as an id). */
  name?: string;
  /** Ownership labels (installation, runtime, backend, ref id) to attach where the provider can. */
  labels: Record<string, string>;
}

/** Provider resources that carry one installation's ownership labels. */
export interface OwnedResources {
  backends: Array<{ backendId: string; resource: BackendResource }>;
  snapshots: Array<{ snapshotId: string }>;
}

/**
 * The plugin contract every provider implements (`@runtimectl/provider-*`). Required members
 * create, re-attach and release backends; the optional snapshot members make the provider
 * capable of checkpoint / checkout / pause. Capabilities are derived from which optional methods
 * exist — there is no separate flag. Prove an implementation with `runProviderConformance`
 * from `@runtimectl/testkit`.
 */
export interface BackendProviderV1 {
  readonly specificationVersion: 'backend-provider-v1';
  /** Stable id used in config, records and the API (`local`, `e2b`, …). */
  readonly providerId: string;
  /**
   * Per-runtime options a caller may pass at open (`provider_options`). Absent: none accepted.
   * Connection settings (keys, URLs, roots) belong to the provider's own settings, never here.
   */
  readonly runtimeOptionsSchema?: z.ZodType<Record<string, unknown>>;
  /**
   * Where its backends can be reached from in a fleet: `fleet` when every node reaches them
   * (E2B: attach by sandbox id), `node` (the default) when they live on the machine of the node
   * that made them (local, memory): only that node, the runtime's home node, operates them.
   */
  readonly locality?: 'node' | 'fleet';
  /**
   * What its snapshots hold, for `GET /providers` (`snapshot_kind`): `filesystem` (the files;
   * checkout and resume start with nothing running: fs, memory) or `memory` (memory and processes
   * too: E2B). Meaningful only with `checkpoint`; a provider that says nothing is taken as
   * `filesystem`, the lesser promise.
   */
  readonly snapshotKind?: SnapshotKind;
  /**
   * Whether checkout and resume verify the restored workspace against the checkpoint's manifest
   * by default (`default`: it costs at most 10% of the restore, as measured by the bench's
   * `verify` section) or only for runtimes that ask (`opt_in`, also when it says nothing). For
   * `GET /providers` (`restore_verification`); the daemon's `verify_restores` and a runtime's
   * `verify` override it. Meaningful only with `checkout` and a backend `manifest()`.
   */
  readonly restoreVerification?: RestoreVerificationDefault;

  /** Creates a new live backend. The caller owns it and must `release` it. */
  create(request: BackendCreateRequest): Promise<ProviderBackend>;
  /**
   * Re-binds to a backend created earlier (the restart path) without changing it.
   * Throws `BackendGoneError` when the resource no longer exists.
   */
  attach(request: BackendAttachRequest): Promise<ProviderBackend>;
  /**
   * Frees the backend's resources. Idempotent: releasing an unknown or already-released
   * backend resolves without error.
   */
  release(request: BackendAttachRequest): Promise<void>;

  /**
   * Snapshots the backend's current state. The snapshot outlives the backend and is owned by
   * the caller until `deleteSnapshot`. Its id is never reused, not even by another process of
   * the provider (core's store outlives it): make it random, or take the platform's.
   */
  checkpoint?(backend: ProviderBackend, request: BackendSnapshotRequest): Promise<ProviderSnapshot>;
  /**
   * Creates a new live backend from a snapshot. Throws `ProviderSnapshotNotFoundError` when the
   * provider no longer has the snapshot (core then answers `checkpoint_snapshot_deleted` and
   * forgets it); never starts from another snapshot. The caller owns the new backend.
   */
  checkout?(request: BackendCheckoutRequest): Promise<ProviderBackend>;
  /**
   * Optional: whether `backend`, just made by `checkout` from `snapshotId` and not used yet, is
   * exactly that snapshot by construction, so that verifying the restore needs no `manifest()`
   * (constant time, whatever the workspace's size). provider-fs in layers mode answers true when
   * the kernel's mount of the workspace names the snapshot's sealed layers, in order, and its
   * writable layer is still empty: sealed layers are never written, so the files are the ones
   * hashed when they were sealed. Answer true only from such a proof; false (or no method) makes
   * core compare the backend's manifest with the checkpoint's, as before.
   */
  restoredExactly?(backend: ProviderBackend, snapshotId: string): Promise<boolean>;
  /**
   * Deletes a snapshot. Resolves `{deleted:false}` when it was already gone (idempotent).
   * Throws `SnapshotInUseError` when the provider refuses because a live backend uses it.
   */
  deleteSnapshot?(snapshotId: string): Promise<{ deleted: boolean }>;
  /**
   * Optional: one regular file of a snapshot, read without restoring it (`read-file` with a
   * `checkpoint_id`, `runtimectl diff --patch`). `path` is workspace-relative, as in a manifest.
   * Throws `PathNotFoundError` when the snapshot holds no such path, `InvalidRequestError` when
   * it is not a regular file, `FileTooLargeError` over `options.maxBytes`, and
   * `ProviderSnapshotNotFoundError` when the snapshot is gone.
   */
  readSnapshotFile?(snapshotId: string, path: string, options?: ReadBytesOptions): Promise<Uint8Array>;

  /**
   * Optional: the settings this provider chose for this machine (after probing it), by name —
   * provider-fs: `snapshot_store` (`layers` or `copy`) and `isolation` (`namespace` or `none`).
   * `GET /api/v1/providers` shows them (`in_force`), so an operator sees what is in force without
   * the start line. A `reason` says why a setting is not what was asked; every API caller sees
   * it, so it names no host path and no secret (core removes absolute paths all the same).
   */
  settingsInForce?(): Promise<Record<string, ProviderSettingInForce>>;

  /**
   * Lists the live backends and snapshots labelled with `installationId` (the `labels` given to
   * create / checkout / checkpoint). Reconciliation after a crash releases the ones no runtime
   * accounts for. Optional: without it, only what the store recorded can be reconciled.
   */
  listOwnedResources?(installationId: string): Promise<OwnedResources>;

  /**
   * For providers whose backends lapse unless refreshed (E2B's sandbox timeout). Declares the
   * complete set of backend resources this process keeps alive from now on: it keeps refreshing
   * each one (starting on the ones new to it at once), and stops refreshing any other it was
   * refreshing — which is neither released nor marked gone, and stays usable through its
   * handles. Desired state, not a diff: idempotent, and cheap when the set is unchanged.
   *
   * Core calls it on every fleet heartbeat: the maintenance lease holder with the resources of
   * every live runtime bound to this provider, the other nodes with only the backends they just
   * made or attached (until the holder has seen them). Until its first call a provider keeps
   * alive what it created, checked out or attached, as without a fleet. A backend this process
   * created, checked out or attached since the previous call may be missing from the set (core
   * had not registered it yet when it took the set): keep it until the next call.
   */
  keepAlive?(resources: readonly BackendResource[]): void;
}
