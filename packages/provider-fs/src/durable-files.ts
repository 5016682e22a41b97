import { randomBytes } from 'node:crypto';
import { open, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Flushes a directory's entries (a rename into it) to disk. */
export async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
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

/** A name beside `path` no other writer uses; starts with a dot and ends `.tmp` so sweeps can tell it. */
export function temporaryNameBeside(path: string): string {
  return join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Writes `content` to `path` so that a crash leaves either the old state or the whole new file:
 * temporary name, fsync, rename, fsync of the directory.
 */
export async function writeFileDurably(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = temporaryNameBeside(path);
  await writeFile(temporary, content, { flush: true });
  await rename(temporary, path);
  await fsyncDirectory(dirname(path));
}
