// Disk actually used under a directory, as `du` counts it: the blocks allocated to every file
// and directory (st_blocks × 512), not their apparent sizes.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function diskUsage(path) {
  const info = await lstat(path);
  let bytes = info.blocks * 512;
  if (info.isDirectory()) for (const name of await readdir(path)) bytes += await diskUsage(join(path, name));
  return bytes;
}

/** The regular files under a directory and their apparent sizes (links not followed). */
export async function treeTotals(path) {
  const info = await lstat(path);
  if (info.isFile()) return { files: 1, bytes: info.size };
  const totals = { files: 0, bytes: 0 };
  if (info.isDirectory()) {
    for (const name of await readdir(path)) {
      const below = await treeTotals(join(path, name));
      totals.files += below.files;
      totals.bytes += below.bytes;
    }
  }
  return totals;
}
