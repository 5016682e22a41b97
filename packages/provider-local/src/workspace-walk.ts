import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type BigIntStats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { nameFromBytes } from '@runtimectl/provider';
import { TimeSlices } from './time-slices';
import { descriptorPath, openDirectorySync } from './workspace-jail';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A regular file, symlink or directory changed under the walk in a way it cannot record (a swap). */
export class WorkspaceChangedError extends Error {}

/**
 * The permission bits a workspace keeps: all but setuid and setgid (`& 0o1777`, the sticky bit
 * stays). A command may set them on its files — they belong to the sandbox identity and the
 * workspace is mounted `nosuid` — but they are never part of a workspace's manifest or snapshot,
 * so no checkout or resume, whose files the daemon writes, ever brings one back.
 */
export const KEPT_MODE_BITS = 0o1777;

/**
 * One path met by the walk: workspace-relative `path` (a name that is not UTF-8 escaped, as
 * `nameFromBytes`), the descriptor path `at` to open it by (bytes for such a name), its lstat.
 */
export interface WalkedPath {
  path: string;
  at: string | Buffer;
  info: BigIntStats;
  /** Permission bits, setuid and setgid left out (`KEPT_MODE_BITS`). */
  mode: number;
}

/** What a walk does with each path it meets (in name order, parents before their children). */
export interface WorkspaceVisitor {
  directory(entry: WalkedPath): void;
  symlink(entry: WalkedPath, target: string): void;
  file(entry: WalkedPath): Promise<void> | void;
  /** A FIFO, socket or device: never opened. */
  special(entry: WalkedPath, kind: 'fifo' | 'socket' | 'device'): void;
}

/**
 * Walks the workspace at `root` (a real path), never following a symbolic link, through
 * directory descriptors (opened without following links, as the workspace jail does), never
 * path strings: a command swapping a directory for a link to the host mid-walk can never bring
 * a host name, link target or file into what the walk reports. Small system calls run directly
 * (see TimeSlices), yielding to the event loop between slices. Resolves the root's permission bits
 * (as every path's: `KEPT_MODE_BITS`).
 * The one walker of a workspace: fs snapshots and local manifests both go through it.
 */
export async function walkWorkspaceTree(root: string, visitor: WorkspaceVisitor): Promise<{ rootMode: number }> {
  const top = openDirectorySync(root);
  try {
    const rootMode = Number(fstatSync(top, { bigint: true }).mode & BigInt(KEPT_MODE_BITS));
    await walkDirectory(top, '', visitor, new TimeSlices());
    return { rootMode };
  } finally {
    closeSync(top);
  }
}

async function walkDirectory(directory: number, relative: string, visitor: WorkspaceVisitor, slices: TimeSlices): Promise<void> {
  // Names as bytes: one that is not UTF-8 is walked under its exact bytes and reported escaped
  // (`nameFromBytes`), never dropped, never confused with another (issue 34).
  const names = readdirSync(descriptorPath(directory), { encoding: 'buffer' })
    .map((bytes) => ({ bytes, name: nameFromBytes(bytes) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { bytes, name } of names) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const at = isUtf8(bytes) ? descriptorPath(directory, name) : Buffer.concat([Buffer.from(descriptorPath(directory, '')), bytes]);
    const info = lstatSync(at, { bigint: true, throwIfNoEntry: false });
    if (!info) continue; // Removed meanwhile: not walked.
    const entry: WalkedPath = { path, at, info, mode: Number(info.mode & BigInt(KEPT_MODE_BITS)) };
    if (info.isSymbolicLink()) {
      visitor.symlink(entry, nameFromBytes(readlinkSync(at, { encoding: 'buffer' })));
    } else if (info.isDirectory()) {
      visitor.directory(entry);
      let child: number;
      try {
        child = openDirectorySync(at);
      } catch (error) {
        const { code } = error as NodeJS.ErrnoException;
        if (code === 'ELOOP' || code === 'ENOTDIR') throw new WorkspaceChangedError('a directory was replaced while it was read');
        throw error;
      }
      try {
        await walkDirectory(child, path, visitor, slices);
      } finally {
        closeSync(child);
      }
    } else if (info.isFile()) {
      await visitor.file(entry);
    } else {
      visitor.special(entry, info.isFIFO() ? 'fifo' : info.isSocket() ? 'socket' : 'device');
    }
    if (slices.due()) await slices.yield();
  }
}

/**
 * Opens the walked regular file `entry` for reading (never following a link, never blocking on
 * a FIFO swapped in), refusing with WorkspaceChangedError one that is no longer the file the
 * walk saw. The caller closes the descriptor.
 */
export function openWalkedFile(entry: WalkedPath): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(entry.at, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new WorkspaceChangedError('a file was replaced while it was read');
    throw error;
  }
  const opened = fstatSync(fd, { bigint: true });
  if (!opened.isFile() || opened.ino !== entry.info.ino || opened.dev !== entry.info.dev) {
    closeSync(fd);
    throw new WorkspaceChangedError('a file was replaced while it was read');
  }
  return { fd, size: Number(opened.size) };
}
