import { execFile } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { DIRECTORY_FLAGS } from '../directory-cursor';

const run = promisify(execFile);

/**
 * How deep (in bytes of relative path) one `cp -a` is asked to reach before the next one takes
 * over, below the directory it starts from: with a file name (at most 255 bytes) under it and
 * the 25 bytes of a `/proc/<pid>/fd/<n>/` prefix, well inside PATH_MAX (4,096).
 */
const BAND_BYTES = 2048;

/** What `cp` says of a path past PATH_MAX. */
const TOO_LONG = 'File name too long';

/** The stderr lines of a failed `cp` that are not about a path past PATH_MAX. */
function otherErrors(error: unknown): string[] {
  const stderr = String((error as { stderr?: unknown }).stderr ?? '');
  if ((error as { code?: unknown }).code !== 1) return [stderr.trim() || String(error)];
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.includes(TOO_LONG));
}

/**
 * `cp -a` of `from`'s contents into `to` (paths a child can resolve, from `cwd`). Resolves
 * whether it copied everything (false: some paths were past PATH_MAX); throws on anything else.
 */
async function copyBand(from: string, to: string, timeout: number, cwd?: string): Promise<boolean> {
  try {
    await run('cp', ['-a', '--', `${from}/.`, to], { timeout, ...(cwd ? { cwd } : {}) });
    return true;
  } catch (error) {
    const others = otherErrors(error);
    if (others.length > 0) throw Object.assign(new Error(others[0]!), { stderr: others.join('\n'), cause: error });
    return false;
  }
}

/**
 * Copies the tree at `source` into `target` (not yet there) as `cp -a` does — whiteouts, opaque
 * marks, xattrs, owners, modes, times, sparse files and hard links included — whatever its
 * depth. `cp` builds whole path names, so it cannot reach past PATH_MAX: where it could not (it
 * says so, and copies the rest), the tree is walked by descriptor and each directory lying more
 * than `BAND_BYTES` below the last one a `cp` started from is copied again by a `cp` that starts
 * there, its source and target named `/proc/<pid>/fd/<n>` (directories this process holds open),
 * so every path each `cp` builds stays short. Only a tree that deep pays for the walk and for
 * copying its deep parts twice; hard links between such parts become copies. Throws (with
 * `stderr`) on any other failure.
 */
export async function copyTree(source: string, target: string, timeout: number): Promise<void> {
  if (await copyBand(source, target, timeout)) return;
  const from = openSync(source, DIRECTORY_FLAGS);
  try {
    const to = openSync(target, DIRECTORY_FLAGS);
    try {
      await copyDeepBands(from, to, 0, timeout);
    } finally {
      closeSync(to);
    }
  } finally {
    closeSync(from);
  }
}

/**
 * Walks the source directory `from` (a descriptor; its copy `to`), `depth` bytes below the
 * directory the last `cp` started from, and has each subdirectory past `BAND_BYTES` copied again
 * from where it is, then walks on below it.
 */
async function copyDeepBands(from: number, to: number, depth: number, timeout: number): Promise<void> {
  const self = `/proc/${process.pid}/fd`;
  for (const entry of readdirSync(`/proc/self/fd/${from}`, { withFileTypes: true, encoding: 'buffer' })) {
    if (!entry.isDirectory()) continue;
    const name = entry.name;
    const within = depth + 1 + name.length;
    const child = openSync(Buffer.concat([Buffer.from(`/proc/self/fd/${from}/`), name]), DIRECTORY_FLAGS);
    try {
      const copy = openSync(Buffer.concat([Buffer.from(`/proc/self/fd/${to}/`), name]), DIRECTORY_FLAGS);
      try {
        if (within > BAND_BYTES) await copyBand('.', `${self}/${copy}`, timeout, `${self}/${child}`);
        await copyDeepBands(child, copy, within > BAND_BYTES ? 0 : within, timeout);
      } finally {
        closeSync(copy);
      }
    } finally {
      closeSync(child);
    }
  }
}
