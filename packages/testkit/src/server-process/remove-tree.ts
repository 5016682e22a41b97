import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';

/** The mount points under `directory` (a real path) in this process's mount namespace, deepest first. */
function mountsUnder(directory: string): string[] {
  let table: string;
  try {
    table = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return []; // not Linux: nothing a daemon made is mounted
  }
  const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
  return table
    .split('\n')
    .map((line) => unescape(line.split(' ')[4] ?? ''))
    .filter((point) => point.startsWith(`${directory}/`))
    .sort((a, b) => b.length - a.length);
}

/**
 * Removes a directory a test gave a daemon or a provider, whatever they left in it. A daemon's
 * fs provider in layers mode keeps each live workspace an overlay mount that outlives the daemon
 * (by design: the next start finds it mounted), so a plain recursive removal would walk into the
 * mounts and then fail on them (EBUSY), leaving mounts on the machine run after run. Each mount
 * under the directory is detached first (`umount --lazy`: a sandbox still using it keeps its own
 * view until it ends), then the tree is removed. Missing directories are fine.
 */
export function removeTree(directory: string): void {
  let real: string;
  try {
    real = realpathSync(directory);
  } catch {
    return;
  }
  for (const point of mountsUnder(real)) {
    try {
      execFileSync('umount', ['--lazy', point], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // Already gone (a parent's detach took it along), or not ours to detach: the removal says so.
    }
  }
  try {
    rmSync(real, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    // Node builds whole path names; a tree deeper than PATH_MAX (a test made one) needs rm's walk by descriptor.
    if ((error as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw error;
    execFileSync('rm', ['-rf', '--', real], { stdio: 'ignore', timeout: 60_000 });
  }
}
