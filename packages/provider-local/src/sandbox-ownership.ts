import { execFile } from 'node:child_process';
import { lchown, lstat, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The host ids a sandbox's root is: what the daemon makes in a workspace is given to them. */
export interface WorkspaceOwner {
  uid: number;
  gid: number;
}

/**
 * Gives what the daemon just made at `at` (a jailed descriptor path) to `owner`, so the
 * workspace's commands — root inside, `owner` on the host — can change it. `lchown`: a symbolic
 * link swapped in meanwhile is changed itself, never what it points at. No owner: left as made.
 */
export async function ownCreated(at: string, owner: WorkspaceOwner | undefined): Promise<void> {
  if (owner) await lchown(at, owner.uid, owner.gid);
}

/** `ownCreated` for a file the daemon holds open (the descriptor, so no path is looked up again). */
export async function ownOpened(handle: FileHandle, owner: WorkspaceOwner | undefined): Promise<void> {
  if (owner) await handle.chown(owner.uid, owner.gid);
}

/**
 * Gives a whole workspace to `owner` when its root is someone else's: a workspace made before
 * sandboxes had their own identity holds files of the daemon's user (root), which its commands
 * could no longer change. `chown -R -h` walks without following links (fts, physical walk), so a
 * command's symbolic link to a host file is changed itself, never the file.
 */
export async function ownWorkspace(directory: string, owner: WorkspaceOwner): Promise<void> {
  const info = await lstat(directory);
  if (info.uid === owner.uid && info.gid === owner.gid) return;
  await execFileAsync('chown', ['-R', '-h', '-P', `${owner.uid}:${owner.gid}`, '--', directory], { timeout: 600_000 });
}
