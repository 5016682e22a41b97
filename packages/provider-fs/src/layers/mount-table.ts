import { readFile } from 'node:fs/promises';

/**
 * Whether a file system is mounted at the absolute, real path `target` in this process's mount
 * namespace (`/proc/self/mountinfo`, field 5; octal escapes as the kernel writes them).
 */
export async function isMountPoint(target: string): Promise<boolean> {
  const table = await readFile('/proc/self/mountinfo', 'utf8');
  for (const line of table.split('\n')) {
    const mountPoint = line.split(' ')[4];
    if (mountPoint !== undefined && unescapeMountinfo(mountPoint) === target) return true;
  }
  return false;
}

const unescapeMountinfo = (field: string) => field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
