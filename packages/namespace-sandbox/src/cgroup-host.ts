import { mkdir, readdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The controllers sandbox limits use, and cgroup v1's freezer (pausing a sandbox's jobs while a
 * checkpoint copies their files: see SandboxCgroup.freezeJobs). cgroup v2 freezes any group
 * (`cgroup.freeze`) without a controller.
 */
export type Controller = 'memory' | 'pids' | 'cpu' | 'freezer';
const CONTROLLERS: readonly Controller[] = ['memory', 'pids', 'cpu'];
const V1_CONTROLLERS: readonly Controller[] = [...CONTROLLERS, 'freezer'];

/** The directory under which each controller's sandbox groups are made, and its hierarchy's version. */
export interface ControllerPlace {
  controller: Controller;
  version: 'v1' | 'v2';
  /** Host path of the parent group (created): sandbox groups are its children. */
  directory: string;
}

/** Whether sandbox groups under `places` can freeze their jobs: v1's freezer is among them, or they are on cgroup v2. */
export const canFreeze = (places: readonly ControllerPlace[]): boolean => places.some((place) => place.controller === 'freezer' || place.version === 'v2');

/** Where this process may make cgroups for sandboxes, or why it may not. */
export type CgroupHost = { places: ControllerPlace[]; version: string } | { places: undefined; reason: string };

/** The parent group's name, a child of this process's own group in each hierarchy. */
export const SANDBOX_GROUPS = 'runtimectl-sandboxes';
/** Where this process moves itself on cgroup v2 when its own group must hand its controllers down (no processes may stay in it). */
const DAEMON_LEAF = 'runtimectl-daemon';

interface Mount {
  point: string;
  type: 'cgroup' | 'cgroup2';
  options: string[];
}

async function mounts(): Promise<Mount[]> {
  const found: Mount[] = [];
  for (const line of (await readFile('/proc/self/mountinfo', 'utf8')).split('\n')) {
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const [type, , superOptions] = after.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    found.push({ point: unescape(before.split(' ')[4]!), type, options: (superOptions ?? '').split(',') });
  }
  return found;
}

/** mountinfo escapes spaces and friends as octal. */
const unescape = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** This process's group per hierarchy: `''` for cgroup v2, else the controller names of the v1 hierarchy. */
async function ownGroups(): Promise<Map<string, string>> {
  const groups = new Map<string, string>();
  for (const line of (await readFile('/proc/self/cgroup', 'utf8')).split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) groups.set(match[1]!, match[2]!);
  }
  return groups;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Finds, for memory, pids and cpu, a hierarchy this process can make groups in: cgroup v2 where
 * its own group has the controller (delegated to it, or as root), else the v1 hierarchy mounted
 * for it (and then v1's freezer too, where it is mounted). Groups go under `<own group>/runtimectl-sandboxes`, so limits of whatever contains this
 * process (a container, a systemd unit) still apply to its sandboxes. On v2, handing controllers
 * down needs a group without processes: this process moves itself into `<own>/runtimectl-daemon`
 * first when its own group refuses (EBUSY). Each parent group is created and checked writable;
 * `{ places: undefined, reason }` when no controller can be used.
 */
export async function findCgroupHost(): Promise<CgroupHost> {
  let allMounts: Mount[];
  let own: Map<string, string>;
  try {
    [allMounts, own] = await Promise.all([mounts(), ownGroups()]);
  } catch (error) {
    return { places: undefined, reason: `cannot read /proc: ${(error as Error).message}` };
  }
  const places: ControllerPlace[] = [];
  const problems: string[] = [];
  const unified = allMounts.find((mount) => mount.type === 'cgroup2');
  const v2Own = own.get('');
  let v2Available: Controller[] = [];
  if (unified && v2Own !== undefined) {
    const ownDirectory = join(unified.point, v2Own);
    const controllers = (await readFile(join(ownDirectory, 'cgroup.controllers'), 'utf8').catch(() => '')).trim().split(/\s+/);
    v2Available = CONTROLLERS.filter((controller) => controllers.includes(controller));
    if (v2Available.length > 0) {
      try {
        const directory = await delegateV2(ownDirectory, v2Available);
        for (const controller of v2Available) places.push({ controller, version: 'v2', directory });
      } catch (error) {
        problems.push(`cgroup v2 at ${ownDirectory}: ${(error as Error).message}`);
        v2Available = [];
      }
    }
  }
  // The freezer is looked for in v1 only where v2 holds no limit (a v2 group freezes by itself).
  const v1Wanted = V1_CONTROLLERS.filter((name) => !v2Available.includes(name) && (name !== 'freezer' || v2Available.length === 0));
  for (const controller of v1Wanted) {
    const mount = allMounts.find((candidate) => candidate.type === 'cgroup' && candidate.options.includes(controller));
    const path = [...own].find(([names]) => names.split(',').includes(controller))?.[1];
    if (!mount || path === undefined) continue;
    const directory = join(mount.point, path, SANDBOX_GROUPS);
    try {
      await mkdir(directory, { recursive: true });
      places.push({ controller, version: 'v1', directory });
    } catch (error) {
      problems.push(`cgroup v1 ${controller} at ${directory}: ${errorCode(error) ?? (error as Error).message}`);
    }
  }
  if (!places.some((place) => CONTROLLERS.includes(place.controller))) {
    return { places: undefined, reason: problems.length > 0 ? problems.join('; ') : 'no memory, pids or cpu cgroup controller is mounted' };
  }
  const versions = [...new Set(places.map((place) => place.version))];
  const missing = CONTROLLERS.filter((controller) => !places.some((place) => place.controller === controller));
  return { places, version: `cgroup ${versions.join('+')}${missing.length > 0 ? ` (no ${missing.join(', ')} controller)` : ''}` };
}

/** Makes `<own>/runtimectl-sandboxes` with `controllers` enabled for its children; answers its path. */
async function delegateV2(ownDirectory: string, controllers: Controller[]): Promise<string> {
  const enable = controllers.map((controller) => `+${controller}`).join(' ');
  try {
    await writeFile(join(ownDirectory, 'cgroup.subtree_control'), enable);
  } catch (error) {
    if (errorCode(error) !== 'EBUSY') throw error;
    // "No internal processes": this process leaves its group for a leaf of its own, then hands down.
    const leaf = join(ownDirectory, DAEMON_LEAF);
    await mkdir(leaf, { recursive: true });
    await writeFile(join(leaf, 'cgroup.procs'), String(process.pid));
    await writeFile(join(ownDirectory, 'cgroup.subtree_control'), enable);
  }
  const directory = join(ownDirectory, SANDBOX_GROUPS);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'cgroup.subtree_control'), enable);
  return directory;
}

/**
 * Removes sandbox groups under `places` that hold no process and were made more than
 * `olderThanMs` ago: those of sandboxes that ended by themselves (their bound directory deleted)
 * with nobody left to remove their group. The kernel refuses to remove a group that holds a
 * process (EBUSY), and a group younger than `olderThanMs` may be one a start is about to enter,
 * so neither is touched. Resolves how many were removed.
 */
export async function sweepSandboxGroups(places: readonly ControllerPlace[], olderThanMs: number): Promise<number> {
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const directory of new Set(places.map((place) => place.directory))) {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch {
      continue;
    }
    for (const name of names.filter((candidate) => candidate.startsWith('sandbox-'))) {
      const group = join(directory, name);
      try {
        if ((await stat(group)).ctimeMs > cutoff) continue;
        // A split group's processes are in its children `init` and `jobs` (see SandboxCgroup).
        const members = [...(await readdir(group, { withFileTypes: true }))].filter((entry) => entry.isDirectory()).map((entry) => join(group, entry.name));
        const busy = await Promise.all([group, ...members].map(async (member) => (await readFile(join(member, 'cgroup.procs'), 'utf8')).trim() !== ''));
        if (busy.some(Boolean)) continue;
        for (const member of members) await rmdir(member);
        await rmdir(group);
        removed += 1;
      } catch {
        // Busy, gone meanwhile, or not a group: left alone.
      }
    }
  }
  return removed;
}
