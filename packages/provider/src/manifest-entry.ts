/**
 * One path of a workspace as a content manifest records it: what a provider's `manifest()`
 * answers for its live workspace, one entry per file, directory and symbolic link (FIFOs,
 * sockets and devices are never listed).
 *
 * - `path`: relative to the workspace root, `/`-separated, never empty, `.` or `..`.
 * - `mode`: the permission bits (`st_mode & 0o7777`). Providers whose workspaces live on the
 *   daemon's host (local, fs) never keep setuid and setgid bits (a command may set them, no
 *   checkout restores them) and record `st_mode & 0o1777`.
 * - `size`: bytes of a file's content, of a symlink's target; 0 for a directory (providers
 *   disagree on a directory's size, so it is not recorded).
 * - `target`: a symlink's target, as read (never followed); null otherwise.
 * - `hash`: a file's content as lowercase sha256 hex; null otherwise.
 */
export interface ManifestEntry {
  path: string;
  kind: ManifestEntryKind;
  mode: number;
  size: number;
  target: string | null;
  hash: string | null;
}

export type ManifestEntryKind = 'file' | 'directory' | 'symlink';

/** A manifest entry for a directory the provider did not list itself (a parent of a listed path). */
export const IMPLIED_DIRECTORY_MODE = 0o755;

/**
 * What changed in a workspace since an earlier snapshot of it (`ProviderSnapshot.manifestDelta`),
 * so a checkpoint's manifest costs what changed, not the workspace. Applied to the base
 * snapshot's manifest it gives the new one: first every `removed` path goes, with everything
 * under it (one that is not there is no error); then every `changed` entry is put in place, in
 * path order — a file or symlink replaces whatever was at its path, a directory entry sets a
 * directory's mode and keeps what it holds (or replaces a file or symlink with an empty
 * directory). A changed path's parent directory is in the base manifest or in `changed`.
 */
export interface ManifestDelta {
  /** The snapshot the delta applies to (made by this provider, of this backend's lineage); null: the empty workspace. */
  baseSnapshotId: string | null;
  removed: string[];
  changed: ManifestEntry[];
}
