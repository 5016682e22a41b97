/**
 * The points where a crash could land while the store writes or collects: a test seam. The
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
  | 'blob-removed';

export type CrashPointHook = (point: CrashPoint) => void;
