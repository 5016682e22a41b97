/**
 * envd's `EntryInfo` message in proto3 JSON, built from a real `lstat`, as envd builds it
 * (`GetEntryInfo` in e2b-dev/infra): `mode` is the permission bits only (`0o755` = 493 for a
 * directory, no Go type bits); `permissions` is Go's `FileMode.String()` of the entry itself
 * (`drwxr-xr-x`, `-rw-r--r--`, `Lrwxrwxrwx`). A symlink is described by what it resolves to:
 * `symlinkTarget` is the fully resolved absolute path, `type` and `mode` are the target's; when
 * it cannot be resolved (dangling, a loop) the target reads as the link's own path, the type as
 * unspecified and the mode as 0.
 */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { readFileMetadata, type FileMetadata } from '../metadata/file-metadata.js';
import type { SandboxOwners } from '../sandbox/sandbox-owners.js';
import { resolveSandboxPath, type ResolvedPath } from '../sandbox/sandbox-paths.js';

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
  /** envd ≥ 0.6.2: the `user.e2b.*` extended attributes, when there are any. */
  metadata?: FileMetadata;
}

/** EntryInfo of `entry` (not following a final symlink for the entry itself) in the sandbox at `sandboxDir`, its owners named by `owners`. */
export async function entryInfoOf(sandboxDir: string, owners: SandboxOwners, entry: ResolvedPath): Promise<EntryInfoJson> {
  const stats = await lstat(entry.hostPath);
  const info: EntryInfoJson = {
    name: entry.sandboxPath === '/' ? '/' : path.posix.basename(entry.sandboxPath),
    type: fileTypeOf(stats),
    path: entry.sandboxPath,
    size: String(stats.size),
    mode: stats.mode & 0o777,
    permissions: goPermissions(stats),
    owner: owners.nameOf(stats.uid, 'uid'),
    group: owners.nameOf(stats.gid, 'gid'),
    modifiedTime: stats.mtime.toISOString(),
  };
  if (!stats.isSymbolicLink()) {
    const metadata = await readFileMetadata(entry.hostPath);
    return Object.keys(metadata).length > 0 ? { ...info, metadata } : info;
  }
  const target = await resolvedTarget(sandboxDir, entry.sandboxPath);
  if (!target) return { ...info, type: 'FILE_TYPE_UNSPECIFIED', mode: 0, symlinkTarget: entry.sandboxPath };
  return { ...info, type: fileTypeOf(target.stats), mode: target.stats.mode & 0o777, symlinkTarget: target.sandboxPath };
}

/** Where a symlink leads inside the sandbox, or undefined when it leads nowhere (dangling, loop). */
async function resolvedTarget(sandboxDir: string, sandboxPath: string): Promise<{ sandboxPath: string; stats: Stats } | undefined> {
  try {
    const target = await resolveSandboxPath(sandboxDir, sandboxPath, true);
    return { sandboxPath: target.sandboxPath, stats: await stat(target.hostPath) };
  } catch {
    return undefined;
  }
}

function fileTypeOf(stats: Stats): EntryInfoJson['type'] {
  if (stats.isSymbolicLink()) return 'FILE_TYPE_SYMLINK';
  if (stats.isDirectory()) return 'FILE_TYPE_DIRECTORY';
  if (stats.isFile()) return 'FILE_TYPE_FILE';
  // Sockets, fifos and devices: the SDK drops UNSPECIFIED entries from listings.
  return 'FILE_TYPE_UNSPECIFIED';
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
