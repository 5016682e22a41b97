import { readFile } from 'node:fs/promises';

/**
 * Whether a file system is mounted at the absolute, real path `target` in this process's mount
 * namespace (`/proc/self/mountinfo`, field 5; octal escapes as the kernel writes them).
 */
export async function isMountPoint(target: string): Promise<boolean> {
  return (await mountLinesAt(target)).length > 0;
}

/**
 * The options of the overlay file system mounted at `target` (the topmost mount there), by
 * name (`lowerdir`, `upperdir`, … as the mount gave them), or null when none is.
 */
export async function overlayOptionsAt(target: string): Promise<Map<string, string> | null> {
  const line = (await mountLinesAt(target)).at(-1);
  // Fields after the separator: file system type, source, super options.
  const [type, , superOptions] = line?.slice(line.indexOf(' - ') + 3).split(' ') ?? [];
  if (type !== 'overlay' || superOptions === undefined) return null;
  return new Map(superOptions.split(',').map((option) => {
    const equals = option.indexOf('=');
    return equals < 0 ? [option, ''] : [option.slice(0, equals), unescapeMountinfo(option.slice(equals + 1))];
  }));
}

/** The mount table's lines for mounts at `target`, in mount order. */
async function mountLinesAt(target: string): Promise<string[]> {
  const table = await readFile('/proc/self/mountinfo', 'utf8');
  return table.split('\n').filter((line) => {
    const mountPoint = line.split(' ')[4];
    return mountPoint !== undefined && unescapeMountinfo(mountPoint) === target;
  });
}

const unescapeMountinfo = (field: string) => field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
