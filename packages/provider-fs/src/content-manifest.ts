import type { ManifestEntry as ContentEntry } from '@runtimectl/provider';
import type { ManifestEntry } from './manifest';

/** A link's permission bits where an older manifest did not record them (Linux links are 0777). */
const LINK_MODE = 0o777;

/**
 * The content manifest (core's `ManifestEntry`, what `manifest()` answers) of a snapshot's
 * entries: the checkpoint hands it to core from the walk it made, so the workspace is not walked
 * a second time for it.
 */
export function contentManifestOf(entries: readonly ManifestEntry[]): ContentEntry[] {
  return entries.map((entry) => {
    switch (entry.kind) {
      case 'dir':
        return { path: entry.path, kind: 'directory', mode: entry.mode, size: 0, target: null, hash: null };
      case 'file':
        return { path: entry.path, kind: 'file', mode: entry.mode, size: entry.size, target: null, hash: entry.hash };
      case 'symlink':
        return { path: entry.path, kind: 'symlink', mode: entry.mode ?? LINK_MODE, size: Buffer.byteLength(entry.target), target: entry.target, hash: null };
    }
  });
}
