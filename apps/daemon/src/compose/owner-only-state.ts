import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isWorkspaceContentInStore } from '@runtimectl/provider-fs';
import { isBookkeepingEntry, OWNER_ONLY_DIRECTORY_MODE } from '@runtimectl/provider-local';
import type { ResolvedConfig } from '../config/load-config';
import type { LoadedProvider } from '../providers/load-providers';

/** Group and other permission bits: what owner-only state never has. */
const GROUP_AND_OTHER = 0o077;
const STICKY = 0o1000;

/** A directory of state and the setting that names it (for errors). */
export interface StateDirectory {
  path: string;
  key: string;
}

/** Where the daemon keeps state, as `makeStateOwnerOnly` tightens it. */
export interface StateLocations {
  stateDir: string;
  /** Trees a store keeps (the fs snapshot store): everything in them is state, but the workspace contents its layers hold. */
  stores: StateDirectory[];
  /** Single files (the installation and node ids; the SQLite database and its -wal and -shm). */
  files: string[];
  /** Providers' workspace roots: owner-only with their bookkeeping, never the workspaces in them. */
  workspaceRoots: StateDirectory[];
}

/** A provider setting naming a directory, when it is one (a path string). */
function directorySetting(settings: unknown, key: 'root' | 'snapshots'): string | undefined {
  const value = (settings as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' ? resolve(value) : undefined;
}

/**
 * The locations of a resolved configuration (paths may lie outside the state directory). A
 * provider's `root` setting is a workspace root and its `snapshots` setting a store, by the
 * convention docs/add-a-provider.md states; what a provider keeps in its own state directory
 * (<state_dir>/providers/<id>) is owner-only from the start.
 */
export function stateLocationsOf(config: ResolvedConfig, providers: readonly Pick<LoadedProvider, 'id' | 'settings'>[]): StateLocations {
  const setting = (key: 'root' | 'snapshots') =>
    providers.flatMap(({ id, settings }) => {
      const path = directorySetting(settings, key);
      return path === undefined ? [] : [{ path, key: `providers.${id}.${key}` }];
    });
  return {
    stateDir: config.stateDir,
    stores: setting('snapshots'),
    files: [
      join(config.stateDir, 'installation-id'),
      join(config.stateDir, 'node-id'),
      ...(config.store.kind === 'sqlite' ? ['', '-wal', '-shm', '-journal'].map((suffix) => `${config.storePath}${suffix}`) : []),
    ],
    workspaceRoots: setting('root'),
  };
}

function statOrNull(path: string, follow = false): Stats | null {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function tighten(path: string, info: Stats): void {
  if ((info.mode & GROUP_AND_OTHER) !== 0) chmodSync(path, info.mode & 0o7700);
}

/**
 * A directory runtimed may make 0700: refused (the start stops, saying why) for the file
 * system's root, a sticky directory such as /tmp, and — `mustBeOwn` — one holding entries of
 * other users (a state_dir of /var/lib by mistake would otherwise lock every other service out).
 */
function assertOwnDirectory(path: string, info: Stats, key: string, mustBeOwn: boolean): void {
  const refuse = (why: string) => {
    throw new Error(`${key} ${path}: ${why}; runtimed makes its state owner-only (0700) and will not do that to a shared directory: give it a directory of its own`);
  };
  if (!info.isDirectory()) refuse('is not a directory');
  if (resolve(path) === sep) refuse('is the root of the file system');
  if ((info.mode & STICKY) !== 0) refuse('is shared (its sticky bit is set, as on /tmp)');
  if (!mustBeOwn || typeof process.getuid !== 'function') return;
  const uid = process.getuid();
  const foreign = readdirSync(path).find((name) => lstatSync(join(path, name)).uid !== uid);
  if (foreign !== undefined) refuse(`holds ${foreign}, which belongs to another user`);
}

/** Takes group and other bits off everything under `directory`, symbolic links aside; `skip` names entries left as they are. */
function tightenTree(directory: string, skip: (name: string, parent: string) => boolean = () => false): void {
  for (const name of readdirSync(directory)) {
    if (skip(name, directory)) continue;
    const path = join(directory, name);
    const info = lstatSync(path);
    if (info.isSymbolicLink()) continue;
    tighten(path, info);
    if (info.isDirectory()) tightenTree(path, skip);
  }
}

/**
 * A directory of state, owner-only: its contents first, then itself, so an interrupted pass is
 * done again at the next start. One already owner-only is taken as done (this build creates
 * everything owner-only; a pass over a large snapshot store costs a stat per blob).
 */
function secureDirectory(path: string, key: string, options: { mustBeOwn: boolean; skip?: (name: string, parent: string) => boolean }): void {
  const info = statOrNull(path, true);
  if (!info) return;
  assertOwnDirectory(path, info, key, options.mustBeOwn);
  if ((info.mode & GROUP_AND_OTHER) === 0) return;
  tightenTree(path, options.skip);
  chmodSync(path, OWNER_ONLY_DIRECTORY_MODE);
}

/** The directories between the state directory and `path` inside it (`<state>/fs` for `<state>/fs/snapshots`). */
function directoriesBetween(stateDir: string, path: string): string[] {
  const between: string[] = [];
  for (let parent = dirname(path); relative(stateDir, parent) !== '' && !relative(stateDir, parent).startsWith('..'); parent = dirname(parent)) {
    between.push(parent);
  }
  return between;
}

/**
 * Makes the daemon's state owner-only before anything else touches it (issue 31): the state
 * directory 0700 (created so when missing), and everything runtimed keeps — the store, the
 * installation and node ids, the fs snapshot store, the workspace roots and the providers'
 * bookkeeping in them — directories 0700, files 0600, wherever they are configured. State an
 * older build left 0755/0644 is tightened here, at start. Workspaces themselves are left as they
 * are, and so are the workspace trees the fs store's layers hold: their directories and contents
 * are the runtime's (their modes are snapshotted and restored, and they may belong to the
 * sandbox's own user); the owner-only root above them is
 * what keeps other local users out. Throws, naming the setting, for a directory that is not
 * runtimed's own to tighten.
 */
export function makeStateOwnerOnly(locations: StateLocations): void {
  const { stateDir } = locations;
  // First: nothing is changed anywhere when the state directory is not runtimed's own.
  const existing = statOrNull(stateDir, true);
  if (existing) assertOwnDirectory(stateDir, existing, 'state_dir', true);
  else mkdirSync(stateDir, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
  const workspaceRoots = new Set(locations.workspaceRoots.map((root) => resolve(root.path)));
  const workspacesAside = (name: string, parent: string) => workspaceRoots.has(resolve(parent)) && !isBookkeepingEntry(name);
  for (const file of locations.files) {
    const info = statOrNull(file);
    if (info?.isFile()) tighten(file, info);
  }
  for (const store of locations.stores) {
    for (const between of directoriesBetween(stateDir, store.path)) secureDirectory(between, 'state_dir', { mustBeOwn: false, skip: () => true });
    // A layer's tree is a workspace's files, modes included: checkpoints would change if tightened.
    const storeRoot = resolve(store.path);
    secureDirectory(store.path, store.key, { mustBeOwn: true, skip: (name, parent) => isWorkspaceContentInStore(storeRoot, name, resolve(parent)) });
  }
  for (const root of locations.workspaceRoots) {
    for (const between of directoriesBetween(stateDir, root.path)) secureDirectory(between, 'state_dir', { mustBeOwn: false, skip: () => true });
    // Its workspaces may belong to the sandbox's user: only a sticky or root directory is refused.
    secureDirectory(root.path, root.key, { mustBeOwn: false, skip: workspacesAside });
  }
  // Last: the state directory itself; what it holds beyond the locations above is not runtimed's to change.
  secureDirectory(stateDir, 'state_dir', { mustBeOwn: true, skip: () => true });
}
