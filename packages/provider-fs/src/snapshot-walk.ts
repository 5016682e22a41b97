import { closeSync } from 'node:fs';
import { openWalkedFile, walkWorkspaceTree, type WalkedPath } from '@runtimectl/provider-local';
import type { BlobBatch } from './blob-batch';

/** Where a walk puts each file's content: a blob batch (the copy store), or a hash alone (layers, whose files stay where they are). */
export type ContentSink = Pick<BlobBatch, 'put'>;
import type { ManifestEntry, SkippedEntry } from './manifest';
import type { StatIndex } from './stat-index';

export { WorkspaceChangedError } from '@runtimectl/provider-local';

export interface WalkResult {
  rootMode: number;
  entries: ManifestEntry[];
  skipped: SkippedEntry[];
  /** Files read and hashed in this walk. */
  hashedFiles: number;
  /** Files whose hash the stat index supplied without reading them. */
  reusedFiles: number;
}

/**
 * Walks the workspace at `root` (a real path) with the local provider's walker (never following
 * a link, through directory descriptors): each link is recorded with its target, each regular
 * file's content is staged in `blobs` (or its hash taken from `index` when its stat is
 * unchanged), FIFOs, sockets and devices are skipped and listed.
 */
export async function walkWorkspace(root: string, blobs: ContentSink, index: StatIndex): Promise<WalkResult> {
  const result: Omit<WalkResult, 'rootMode'> = { entries: [], skipped: [], hashedFiles: 0, reusedFiles: 0 };
  const { rootMode } = await walkWorkspaceTree(root, {
    directory: ({ path, mode }) => void result.entries.push({ path, kind: 'dir', mode }),
    symlink: ({ path, mode }, target) => void result.entries.push({ path, kind: 'symlink', target, mode }),
    special: ({ path }, kind) => void result.skipped.push({ path, kind }),
    file: async (entry) => {
      const known = index.known(entry.path, entry.info);
      const hash = known ?? (await storeFile(entry, blobs));
      if (known) result.reusedFiles++;
      else result.hashedFiles++;
      index.record(entry.path, entry.info, hash);
      result.entries.push({ path: entry.path, kind: 'file', mode: entry.mode, size: Number(entry.info.size), mtimeMs: Number(entry.info.mtimeNs / 1_000_000n), hash });
    },
  });
  return { rootMode, ...result };
}

async function storeFile(entry: WalkedPath, blobs: ContentSink): Promise<string> {
  const { fd, size } = openWalkedFile(entry);
  try {
    return (await blobs.put(fd, size)).hash;
  } finally {
    closeSync(fd);
  }
}
