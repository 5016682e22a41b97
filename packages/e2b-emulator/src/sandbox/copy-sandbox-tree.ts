import { execFile } from 'node:child_process';
import { cp, lstat, utimes } from 'node:fs/promises';
import { promisify } from 'node:util';
import { copyFileMetadata } from '../metadata/file-metadata.js';

const run = promisify(execFile);

/**
 * Copies a sandbox's directory tree as a VM snapshot keeps it: files, directories and symlinks
 * (verbatim) with their timestamps, and named pipes, which `fs.cp` refuses, recreated with
 * `mkfifo` (same mode and times), and the files' `user.*` extended attributes (envd's file
 * metadata among them), which `fs.cp` drops. Sockets and device nodes are left out: a socket
 * belongs to a process the copy does not carry, and a sandbox cannot make devices.
 */
export async function copySandboxTree(from: string, to: string): Promise<void> {
  const fifos: Array<{ source: string; target: string }> = [];
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: async (source, target) => {
      const stats = await lstat(source);
      if (stats.isFIFO()) {
        fifos.push({ source, target });
        return false;
      }
      return !stats.isSocket() && !stats.isCharacterDevice() && !stats.isBlockDevice();
    },
  });
  for (const { source, target } of fifos) {
    const stats = await lstat(source);
    await run('mkfifo', ['-m', (stats.mode & 0o7777).toString(8), '--', target]);
    await utimes(target, stats.atime, stats.mtime);
  }
  await copyFileMetadata(from, to);
}
