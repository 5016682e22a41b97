import { execFile } from 'node:child_process';
import { chmod, cp, lchown, lstat, utimes } from 'node:fs/promises';
import { promisify } from 'node:util';
import { copyFileMetadata } from '../metadata/file-metadata.js';

const run = promisify(execFile);
const OWN_UID = process.getuid?.();
const OWN_GID = process.getgid?.();

/**
 * Copies a sandbox's directory tree as a VM snapshot keeps it: files, directories and symlinks
 * (verbatim) with their timestamps and — when the emulator is root, where a sandbox's users are
 * host identities of their own — their owners, and named pipes, which `fs.cp` refuses, recreated with
 * `mkfifo` (same mode and times), and the files' `user.*` extended attributes (envd's file
 * metadata among them), which `fs.cp` drops. Sockets and device nodes are left out: a socket
 * belongs to a process the copy does not carry, and a sandbox cannot make devices.
 */
export async function copySandboxTree(from: string, to: string): Promise<void> {
  const fifos: Array<{ source: string; target: string }> = [];
  const owned: Array<{ target: string; uid: number; gid: number; setid: number | undefined }> = [];
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: async (source, target) => {
      const stats = await lstat(source);
      const setid = !stats.isSymbolicLink() && stats.mode & 0o6000 ? stats.mode & 0o7777 : undefined;
      if (stats.uid !== OWN_UID || stats.gid !== OWN_GID) owned.push({ target, uid: stats.uid, gid: stats.gid, setid });
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
  // fs.cp makes everything the copier's; only root may give it back (after the fifos are made).
  // A chown clears setuid and setgid bits, root's too: they are set again after it.
  if (OWN_UID === 0) {
    for (const { target, uid, gid, setid } of owned) {
      await lchown(target, uid, gid);
      if (setid !== undefined) await chmod(target, setid);
    }
  }
  await copyFileMetadata(from, to);
}
