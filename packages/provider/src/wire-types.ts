// The few wire shapes the provider contract names. The control plane's zod schemas for the HTTP
// API (in @runtimectl/core) are checked against these types, so the two cannot drift.

/** What a provider's snapshots hold: the files only, or memory and processes too. */
export type SnapshotKind = 'filesystem' | 'memory';

/** Whether a provider's restores are verified unless a runtime or the daemon says otherwise. */
export type RestoreVerificationDefault = 'default' | 'opt_in';

/** What a path in a workspace is, as `stat` and `list` answer. */
export type PathKind = 'file' | 'directory' | 'symlink' | 'other';

/** A special file (FIFO, socket, device) a snapshot did not hold, by its workspace path. */
export interface SkippedPath {
  path: string;
  kind: 'fifo' | 'socket' | 'device';
}

/** What each operation does on a provider's runtimes (`GET /v1/providers`), derived by `providerCapabilities`. */
export interface ProviderCapabilities {
  /** `POST /checkpoint` works (always true: without a snapshot it records lineage and session state). */
  checkpoint: boolean;
  /** Checkpoints carry a restorable provider snapshot (`has_provider_snapshot`). */
  snapshot: boolean;
  checkout: boolean;
  delete_snapshot: boolean;
  pause: boolean;
  /**
   * What a snapshot holds: `filesystem` (files; processes do not survive checkout, pause and
   * resume), `memory` (memory and processes too), null without snapshots.
   */
  snapshot_kind: SnapshotKind | null;
  /**
   * Whether checkout and resume verify the restored workspace against the checkpoint's manifest
   * by default (`default`) or only when a runtime asks (`opt_in`); null without checkout.
   */
  restore_verification: RestoreVerificationDefault | null;
}
