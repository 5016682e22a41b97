import type { ContentHash } from './blob-store';

/** One path of a snapshot, relative to the workspace root, POSIX separators, never `.` or `..`. */
export type ManifestEntry =
  | { path: string; kind: 'dir'; mode: number }
  | { path: string; kind: 'file'; mode: number; size: number; mtimeMs: number; hash: ContentHash }
  /** `mode`: the link's own permission bits (absent in manifests written before it was recorded). */
  | { path: string; kind: 'symlink'; target: string; mode?: number };

/** A path the snapshot does not hold: a FIFO, socket or device (never copied, never opened). */
export interface SkippedEntry {
  path: string;
  kind: 'fifo' | 'socket' | 'device';
}

/** A snapshot: the workspace's tree over the blob store. Entries sorted by path, parents first. */
export interface Manifest {
  version: 1;
  snapshotId: string;
  createdAt: string;
  name?: string;
  labels: Record<string, string>;
  /** Permission bits of the workspace root itself. */
  rootMode: number;
  entries: ManifestEntry[];
  skipped: SkippedEntry[];
}

/** The hashes a manifest needs from the blob store. */
export function blobsOf(manifest: Manifest): Set<ContentHash> {
  const hashes = new Set<ContentHash>();
  for (const entry of manifest.entries) if (entry.kind === 'file') hashes.add(entry.hash);
  return hashes;
}

const SAFE_PATH = (path: string) =>
  path !== '' && !path.startsWith('/') && !path.includes('\0') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

/**
 * Parses a stored manifest, refusing one whose paths could leave the directory it is
 * materialised into (a tampered store must never write outside a workspace).
 */
export function parseManifest(text: string): Manifest {
  const manifest = JSON.parse(text) as Manifest;
  if (manifest?.version !== 1 || !Array.isArray(manifest.entries) || !Array.isArray(manifest.skipped)) throw new Error('not a version 1 manifest');
  const directories = new Set(['']);
  const seen = new Set<string>();
  for (const entry of manifest.entries) {
    if (typeof entry.path !== 'string' || !SAFE_PATH(entry.path)) throw new Error(`manifest path ${JSON.stringify(entry.path)} is not a relative path inside the workspace`);
    if (!['dir', 'file', 'symlink'].includes(entry.kind)) throw new Error(`manifest entry ${entry.path} has an unknown kind`);
    // Parents first, and only under directories: never a path through a recorded symlink.
    const parent = entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/')) : '';
    if (!directories.has(parent) || seen.has(entry.path)) throw new Error(`manifest entry ${entry.path} does not follow its parent directory`);
    seen.add(entry.path);
    if (entry.kind === 'dir') directories.add(entry.path);
  }
  return manifest;
}
