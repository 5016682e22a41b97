/**
 * The points where a crash could land while a store (blobs or layers) writes or collects: a test seam. The
 * crash tests pass a `crashPoint` callback that SIGKILLs the process at the n-th call of one of
 * them, so every interleaving they name is reached deterministically, not by timing.
 */
export type CrashPoint =
  /** A new blob's file exists and none of its content is written yet. */
  | 'blob-file-created'
  /** A staged blob was just renamed to its final name. */
  | 'blob-renamed'
  /** deleteSnapshot removed the manifest; garbage collection has not run. */
  | 'manifest-removed'
  /** Garbage collection just removed one blob. */
  | 'blob-removed'
  /** Layers: a seal by rename is written ahead in the workspace's record; the workspace is still mounted. */
  | 'seal-written-ahead'
  /** Layers: the upper directory is renamed into a layer; the workspace's record still names the layer below. */
  | 'upper-renamed'
  /** Layers: the workspace is mounted again over its new layer; the snapshot's record is not written. */
  | 'workspace-remounted'
  /** Layers: the upper directory of a workspace with jobs running is copied into a layer (they are frozen); no snapshot names it. */
  | 'upper-copied'
  /** Layers: a new workspace (created, or checked out) is recorded; it is not mounted yet. */
  | 'live-recorded'
  /** Layers: a new workspace is mounted; its create or checkout has not answered. */
  | 'live-mounted'
  /** Layers: a flatten's copy is whole; the flattened layer's record does not name it yet. */
  | 'flatten-copied'
  /** Layers: garbage collection just removed one layer. */
  | 'layer-removed';

export type CrashPointHook = (point: CrashPoint) => void;
