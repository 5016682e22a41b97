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
