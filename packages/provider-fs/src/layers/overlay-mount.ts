import { MountShell } from './mount-shell';

/** The process's one shell for mount commands (see MountShell). */
const shell = new MountShell();

/** A mount or unmount never waits on forever. */
const MOUNT_TIMEOUT_MS = 30_000;

/**
 * Options every layered mount takes. Off: `redirect_dir` (a renamed directory would be a
 * redirect xattr pointing into a lower layer: `rename` answers EXDEV and `mv` copies instead),
 * `metacopy` (a chmod would copy up metadata only, leaving the data in a lower layer: a sealed
 * layer must hold whole files), `index` and `xino` (inode bookkeeping across layers the store
 * does not need). So a sealed upper directory is an ordinary tree plus whiteouts and opaque marks.
 */
const LAYER_OPTIONS = 'redirect_dir=off,metacopy=off,index=off,xino=off';

/** A writable overlay: `lowers` (top first, relative to `cwd`), over which `upper` takes the writes. */
export interface WritableOverlay {
  /** The directory the other paths are relative to (the snapshot store): keeps the options short. */
  cwd: string;
  lowers: readonly string[];
  upper: string;
  work: string;
  target: string;
}

/**
 * Mounts `lowers` read-only under the writable `upper` at `target` (overlayfs; root only). Paths
 * are relative to `cwd`, so a chain of short layer names fits the one page of mount options.
 */
export async function mountOverlay({ cwd, lowers, upper, work, target }: WritableOverlay): Promise<void> {
  if (lowers.length === 0) throw new TypeError('an overlay needs at least one lower layer');
  const options = `lowerdir=${lowers.map(escapeOption).join(':')},upperdir=${escapeOption(upper)},workdir=${escapeOption(work)},${LAYER_OPTIONS}`;
  await mount(cwd, ['-t', 'overlay', 'overlay', '-o', options, target]);
}

/** Mounts the chain `lowers` (top first, at least two) read-only at `target`: the tree a snapshot holds, as overlayfs merges it. */
export async function mountReadOnlyChain(cwd: string, lowers: readonly string[], target: string): Promise<void> {
  if (lowers.length < 2) throw new TypeError('a read-only overlay needs at least two lower layers');
  await mount(cwd, ['-t', 'overlay', 'overlay', '-o', `ro,lowerdir=${lowers.map(escapeOption).join(':')},${LAYER_OPTIONS}`, target]);
}

/**
 * Unmounts `target`. `lazy` detaches a mount still in use (a process that outlived its kill):
 * the tree is freed when the last user goes. Resolves when nothing was mounted there.
 */
export async function unmount(target: string, options: { lazy?: boolean } = {}): Promise<void> {
  const { status, firstLine: line } = await shell.run('/', ['umount', ...(options.lazy ? ['--lazy'] : []), target], MOUNT_TIMEOUT_MS);
  if (status === 0 || /not mounted|no mount point specified/i.test(line)) return;
  throw new Error(`could not unmount a workspace (${reasonIn(line) || 'umount failed'})`);
}

async function mount(cwd: string, args: string[]): Promise<void> {
  const { status, firstLine: line } = await shell.run(cwd, ['mount', ...args], MOUNT_TIMEOUT_MS);
  if (status !== 0) throw new Error(`could not mount a layered workspace (${reasonIn(line) || 'mount failed'})`);
}

/** Commas and colons separate overlay options and layers; a backslash escapes them (layer paths never hold one: defence only). */
const escapeOption = (path: string) => path.replace(/[\\,:]/g, (character) => `\\${character}`);

/** The reason in mount's or umount's line of error, without the host paths it names (`mount: /x/y: mount point does not exist.`). */
const reasonIn = (line: string) =>
  line
    .trim()
    .split(': ')
    .filter((part) => part !== 'mount' && part !== 'umount' && !part.startsWith('/'))
    .join(': ')
    .replace(/\.$/, '');
