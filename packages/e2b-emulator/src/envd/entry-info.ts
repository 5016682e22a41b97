/**
 * envd's `EntryInfo` message in proto3 JSON, built from a real `lstat`. Mode and permissions
 * follow Go's `os.FileMode` (envd is Go): the directory bit is 1<<31, a symlink's is 1<<27,
 * and the permission string reads like `drwxr-xr-x` / `-rw-r--r--` / `Lrwxrwxrwx`.
 */
import type { Stats } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

const GO_MODE_DIR = 2 ** 31;
const GO_MODE_SYMLINK = 2 ** 27;

export interface EntryInfoJson {
  name: string;
  type: 'FILE_TYPE_FILE' | 'FILE_TYPE_DIRECTORY' | 'FILE_TYPE_SYMLINK' | 'FILE_TYPE_UNSPECIFIED';
  path: string;
  size: string;
  mode: number;
  permissions: string;
  owner: string;
  group: string;
  modifiedTime: string;
  symlinkTarget?: string;
}

/** EntryInfo of `hostPath` (not following a final symlink), reported under `sandboxPath`. */
export async function entryInfoOf(hostPath: string, sandboxPath: string): Promise<EntryInfoJson> {
  const stats = await lstat(hostPath);
  const entry: EntryInfoJson = {
    name: sandboxPath === '/' ? '/' : path.posix.basename(sandboxPath),
    type: fileTypeOf(stats),
    path: sandboxPath,
    size: String(stats.size),
    mode: goMode(stats),
    permissions: goPermissions(stats),
    owner: ownerName(stats.uid),
    group: ownerName(stats.gid),
    modifiedTime: stats.mtime.toISOString(),
  };
  if (stats.isSymbolicLink()) entry.symlinkTarget = await readlink(hostPath);
  return entry;
}

function fileTypeOf(stats: Stats): EntryInfoJson['type'] {
  if (stats.isSymbolicLink()) return 'FILE_TYPE_SYMLINK';
  if (stats.isDirectory()) return 'FILE_TYPE_DIRECTORY';
  if (stats.isFile()) return 'FILE_TYPE_FILE';
  // Sockets, fifos and devices: the SDK drops UNSPECIFIED entries from listings.
  return 'FILE_TYPE_UNSPECIFIED';
}

function goMode(stats: Stats): number {
  const permissionBits = stats.mode & 0o777;
  if (stats.isDirectory()) return GO_MODE_DIR + permissionBits;
  if (stats.isSymbolicLink()) return GO_MODE_SYMLINK + permissionBits;
  return permissionBits;
}

function goPermissions(stats: Stats): string {
  const kind = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'L' : '-';
  let bits = '';
  for (let shift = 6; shift >= 0; shift -= 3) {
    const triple = (stats.mode >> shift) & 0o7;
    bits += (triple & 4 ? 'r' : '-') + (triple & 2 ? 'w' : '-') + (triple & 1 ? 'x' : '-');
  }
  return kind + bits;
}

/** Files are owned by whoever runs the emulator; root reads as `root`, others by number. */
function ownerName(id: number): string {
  return id === 0 ? 'root' : String(id);
}
