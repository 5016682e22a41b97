import { constants } from 'node:fs';
import { readdir, type FileHandle } from 'node:fs/promises';
import { InvalidRequestError, type SearchTree } from '@runtimectl/provider';
import { errorCode } from './fs-errors';
import { openRegularFile, readAtMost } from './regular-file';
import { descriptorPath, openDirectory, type WorkspaceJail } from './workspace-jail';

/** A directory that vanished, became a file or a link, or cannot be read is passed over. */
const PASSED_OVER = ['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'ENXIO'];

/**
 * The workspace as core's `globFiles`/`grepFiles` see it: regular files only, found by walking
 * directories without following symbolic links (as `grep -r` and ripgrep do by default), so a
 * link can neither lead the search outside the workspace nor loop. The base directory is reached
 * through the jail, and every directory below it is opened with `O_NOFOLLOW` relative to its
 * parent's descriptor, so a directory swapped for a link mid-search is passed over, never
 * followed; each file is read through the jail too. A directory that cannot be read, or a file
 * that vanished mid-search, is passed over.
 */
export function workspaceSearchTree(jail: WorkspaceJail): SearchTree {
  return {
    async listFiles(baseDir) {
      const files: string[] = [];
      try {
        await jail.within(baseDir, {}, async ({ at, info }) => {
          if (info?.isDirectory()) await listUnder(at, baseDir, files);
        });
      } catch (error) {
        if (!PASSED_OVER.includes(errorCode(error) ?? '') && !InvalidRequestError.isInstance(error)) throw error;
      }
      return files;
    },
    async readFile(path, maxBytes) {
      try {
        // Listed as a regular file, but it may have been replaced by a FIFO since: never block on one.
        return await jail.within(path, {}, async ({ at }) => {
          const file = await openRegularFile(at, constants.O_RDONLY, path);
          try {
            return await readAtMost(file, maxBytes ?? Number.MAX_SAFE_INTEGER, path);
          } finally {
            await file.handle.close();
          }
        });
      } catch (error) {
        if (PASSED_OVER.includes(errorCode(error) ?? '') || InvalidRequestError.isInstance(error)) return new Uint8Array();
        throw error;
      }
    },
  };
}

/** Adds the regular files under the directory `at` (named `relative`) to `files`. */
async function listUnder(at: string, relative: string, files: string[]): Promise<void> {
  let directory: FileHandle;
  try {
    directory = await openDirectory(at);
  } catch (error) {
    if (PASSED_OVER.includes(errorCode(error) ?? '')) return;
    throw error;
  }
  try {
    for (const entry of await readdir(descriptorPath(directory), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await listUnder(descriptorPath(directory, entry.name), path, files);
      else if (entry.isFile()) files.push(path);
    }
  } catch (error) {
    if (!PASSED_OVER.includes(errorCode(error) ?? '')) throw error;
  } finally {
    await directory.close();
  }
}
