import { closeSync, type BigIntStats } from 'node:fs';
import type { ManifestEntry } from '@runtimectl/provider';
import { hashOpenFile } from './file-hash';
import { openWalkedFile, walkWorkspaceTree } from './workspace-walk';

/**
 * Hashes a composing provider already knows (provider-fs: its stat index, as of the last
 * checkpoint): a file whose stat is unchanged is not read again.
 */
export interface KnownHashes {
  /** The sha256 of `path`'s content when its stat (`info`) shows it unchanged; else null. */
  known(path: string, info: BigIntStats): string | null;
}

/**
 * The content manifest of the workspace at `root` (a real path): every directory, symlink and
 * regular file (hashed, or its hash taken from `known`), through the one workspace walker.
 * FIFOs, sockets and devices are left out (never opened).
 */
export async function workspaceManifest(root: string, known?: KnownHashes): Promise<ManifestEntry[]> {
  const entries: ManifestEntry[] = [];
  await walkWorkspaceTree(root, {
    directory: ({ path, mode }) => void entries.push({ path, kind: 'directory', mode, size: 0, target: null, hash: null }),
    symlink: ({ path, mode }, target) => void entries.push({ path, kind: 'symlink', mode, size: Buffer.byteLength(target), target, hash: null }),
    special: () => {},
    file: async (entry) => {
      const hash = known?.known(entry.path, entry.info);
      if (hash) {
        entries.push({ path: entry.path, kind: 'file', mode: entry.mode, size: Number(entry.info.size), target: null, hash });
        return;
      }
      const { fd, size } = openWalkedFile(entry);
      try {
        const content = await hashOpenFile(fd, size);
        entries.push({ path: entry.path, kind: 'file', mode: entry.mode, size: content.size, target: null, hash: content.hash });
      } finally {
        closeSync(fd);
      }
    },
  });
  return entries;
}
