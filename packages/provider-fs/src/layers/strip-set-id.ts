import { execFile } from 'node:child_process';
import { chmodSync, lstatSync } from 'node:fs';
import { promisify } from 'node:util';
import { walkWorkspaceTree, type WalkedPath } from '@runtimectl/provider-local';

const run = promisify(execFile);

const SET_ID_BITS = 0o6000;

/** Entries a walk in the daemon visits before `find` takes over: a checkpoint's few changed files cost no process. */
const WALKED_IN_PROCESS = 2_000;

/** Bound on `find`'s walk of a large layer. */
const FIND_TIMEOUT_MS = 10 * 60_000;

/**
 * Clears every setuid and setgid bit in the tree at `root` (the root's own included), as the copy
 * store never records one (`KEPT_MODE_BITS`): a bit a command set must not come back on a file of
 * a checkout, whose files a daemon running as root may own. The tree is one nothing writes (an
 * unmounted upper directory, a fresh copy). A small tree is walked in the daemon (directories by
 * descriptor, links never followed); past `WALKED_IN_PROCESS` entries one `find` does it, which
 * walks trees of any depth and names of any bytes (`-execdir` hands `chmod` names relative to
 * their directory, and needs a PATH of absolute directories only, whatever the daemon's own).
 */
export async function stripSetIdBits(root: string): Promise<void> {
  if (await stripSmallTree(root)) return;
  await run('find', [root, '-perm', '/6000', '!', '-type', 'l', '-execdir', 'chmod', 'ug-s', '--', '{}', '+'], { timeout: FIND_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' } });
}

/** Strips the tree's bits in the daemon; false (some stripped, the rest left to `find`) once it holds more than `WALKED_IN_PROCESS` entries. */
async function stripSmallTree(root: string): Promise<boolean> {
  clearSetIdBits(root, lstatSync(root).mode);
  let walked = 0;
  const count = () => {
    if (++walked > WALKED_IN_PROCESS) throw TOO_LARGE;
  };
  const visit = (entry: WalkedPath) => {
    count();
    clearSetIdBits(entry.at, Number(entry.info.mode));
  };
  try {
    await walkWorkspaceTree(root, { directory: visit, file: visit, special: visit, symlink: count });
    return true;
  } catch (error) {
    if (error === TOO_LARGE) return false;
    throw error;
  }
}

const TOO_LARGE = new Error('more entries than a walk in the daemon takes');

function clearSetIdBits(path: string | Buffer, mode: number): void {
  if (mode & SET_ID_BITS) chmodSync(path, mode & 0o7777 & ~SET_ID_BITS);
}
