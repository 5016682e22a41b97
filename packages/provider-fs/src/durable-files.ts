import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { open, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { OWNER_ONLY_FILE_MODE, TimeSlices } from '@runtimectl/provider-local';

/** Flushes a directory's entries (a rename into it) to disk. */
export function fsyncDirectory(directory: string): Promise<void> {
  return fsyncPath(directory);
}

/** Flushes a file's content, or a directory's entries, to disk (opened read-only: fsync needs no write access). */
async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a file's content to disk. */
export async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Below this many paths, fsyncing each costs less than a whole-file-system flush. */
const SYNCFS_FROM_PATHS = 32;
let syncfsWorks: boolean | undefined;

/**
 * Makes `paths` (files and directories on the file system of `directory`) durable. Many paths:
 * one syncfs(2) of that file system (through coreutils `sync -f`), one flush instead of an fsync
 * per file — it also flushes other writers' data on that file system, which costs time, never
 * correctness. Few paths, or where `sync -f` is unavailable: an fsync each, in direct calls.
 */
export async function syncPaths(directory: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  if (paths.length >= SYNCFS_FROM_PATHS && syncfsWorks !== false) {
    try {
      await promisify(execFile)('sync', ['-f', directory]);
      syncfsWorks = true;
      return;
    } catch {
      syncfsWorks = false;
    }
  }
  const slices = new TimeSlices();
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    await slices.yieldIfDue();
  }
}

/** A name beside `path` no other writer uses; starts with a dot and ends `.tmp` so sweeps can tell it. */
export function temporaryNameBeside(path: string): string {
  return join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Writes `content` to `path` so that a crash leaves either the old state or the whole new file:
 * temporary name, fsync, rename, fsync of the directory. Owner-only (0600), as everything the store writes.
 */
export async function writeFileDurably(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = temporaryNameBeside(path);
  await writeFile(temporary, content, { flush: true, mode: OWNER_ONLY_FILE_MODE });
  await rename(temporary, path);
  await fsyncDirectory(dirname(path));
}

/**
 * Replaces `path` by `content` atomically (temporary name, rename) without waiting for the disk:
 * for caches, whose readers treat a lost, empty or unreadable file as no cache.
 */
export async function replaceFile(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = temporaryNameBeside(path);
  await writeFile(temporary, content, { mode: OWNER_ONLY_FILE_MODE });
  await rename(temporary, path);
}

/** Writes all of `content` to the descriptor (a write may take fewer bytes than asked). */
export function writeAllSync(fd: number, content: Uint8Array): void {
  for (let offset = 0; offset < content.length; ) offset += writeSync(fd, content, offset);
}
