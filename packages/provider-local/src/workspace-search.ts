import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { constants } from 'node:fs';
import { InvalidRequestError, type SearchTree } from '@runtimectl/core';
import { errorCode } from './fs-errors';
import { openRegularFile } from './regular-file';

/**
 * The workspace as core's `globFiles`/`grepFiles` see it: regular files only, found by walking
 * directories without following symbolic links (as `grep -r` and ripgrep do by default), so a
 * link can neither lead the search outside the workspace nor loop. A directory that cannot be
 * read, or a file that vanished mid-search, is passed over.
 */
export function workspaceSearchTree(root: string): SearchTree {
  return {
    async listFiles(baseDir) {
      const files: string[] = [];
      await walk(baseDir === '' ? root : join(root, baseDir), baseDir, files);
      return files;
    },
    async readFile(path) {
      let handle;
      try {
        // Listed as a regular file, but it may have been replaced by a FIFO since: never block on one.
        ({ handle } = await openRegularFile(join(root, path), constants.O_RDONLY, path));
      } catch (error) {
        if (['ENOENT', 'ELOOP', 'ENXIO'].includes(errorCode(error) ?? '') || InvalidRequestError.isInstance(error)) return new Uint8Array();
        throw error;
      }
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },
  };
}

async function walk(directory: string, relative: string, files: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'EACCES'].includes(errorCode(error) ?? '')) return;
    throw error;
  }
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) await walk(join(directory, entry.name), path, files);
    else if (entry.isFile()) files.push(path);
  }
}
