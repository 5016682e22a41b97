import { readFileSync } from 'node:fs';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { canFreeze, type ControllerPlace } from './cgroup-host';
import type { LimitCounters, SandboxLimits } from './sandbox-limits';

const CPU_PERIOD_US = 100_000;
const POLL_MS = 20;
/** Freezing takes the kernel microseconds to milliseconds: polled often. */
const FREEZE_POLL_MS = 2;
/** A group's name: what the caller chose (letters, digits, `.`, `_`, `-`). */
const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** `key N` from a small cgroup file (read synchronously: a few bytes of kernel memory, read on every exec). */
function readNumberAfter(file: string, key: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** The child groups of a split sandbox group: its init's, and everything its commands run. */
const INIT_GROUP = 'init';
const JOBS_GROUP = 'jobs';

/**
 * One sandbox's cgroup: a group per hierarchy in use (cgroup v1 has one per controller, v2 one
 * for all), named after the sandbox, where its limits are written. Every process the sandbox runs
 * is put in it before it runs anything (see `procsFiles`), so the limits hold for every command
 * and background job alike.
 *
 * A `split` group (every one made since the jobs count) holds no process itself: its init (with
 * the host-side `unshare` above it and the init's timer) is in child `init`, and every command
 * and what it leaves running in child `jobs`. So the kernel counts the jobs alone
 * (`pids.current` of `jobs`: a task is charged when its fork begins and freed when it is reaped),
 * an exact answer to "does anything still run?" that no listing of /proc can give (see
 * `jobTasks`). Groups of sandboxes started before (not split) hold everything in one group.
 */
export class SandboxCgroup {
  private constructor(
    readonly name: string,
    private readonly places: readonly ControllerPlace[],
    readonly split: boolean,
  ) {}

  /** The group `name` under `places` (made by `create`, or found again after a restart). */
  static at(places: readonly ControllerPlace[], name: string, split = false): SandboxCgroup {
    if (!GROUP_NAME.test(name)) throw new TypeError(`not a sandbox group name: ${name}`);
    return new SandboxCgroup(name, places, split);
  }

  /**
   * Makes the group, split (see the class), and writes `limits` on it (unset kinds: no limit).
   * Throws when a write is refused.
   */
  static async create(places: readonly ControllerPlace[], name: string, limits: SandboxLimits): Promise<SandboxCgroup> {
    const group = SandboxCgroup.at(places, name, true);
    for (const directory of group.#directories()) await mkdir(directory, { recursive: true });
    const memory = group.#place('memory');
    if (limits.memoryBytes && memory) {
      const v1 = memory.version === 'v1';
      await writeFile(join(group.#directory(memory), v1 ? 'memory.limit_in_bytes' : 'memory.max'), String(limits.memoryBytes));
      // Swap would let a process go past the limit instead of being stopped at it.
      const swap = join(group.#directory(memory), v1 ? 'memory.memsw.limit_in_bytes' : 'memory.swap.max');
      if (await exists(swap)) await writeFile(swap, v1 ? String(limits.memoryBytes) : '0');
    }
    const pids = group.#place('pids');
    if (limits.pids && pids) await writeFile(join(group.#directory(pids), 'pids.max'), String(limits.pids));
    const cpu = group.#place('cpu');
    if (limits.cpuCores && cpu) {
      const quota = Math.max(1_000, Math.round(limits.cpuCores * CPU_PERIOD_US));
      if (cpu.version === 'v1') {
        await writeFile(join(group.#directory(cpu), 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
        await writeFile(join(group.#directory(cpu), 'cpu.cfs_quota_us'), String(quota));
      } else {
        await writeFile(join(group.#directory(cpu), 'cpu.max'), `${quota} ${CPU_PERIOD_US}`);
      }
    }
    // On v2 a group's `pids.current` exists where its parent enables the controller (a group
    // with controllers enabled for its children holds no process itself: `init` and `jobs` do).
    if (pids?.version === 'v2') await writeFile(join(group.#directory(pids), 'cgroup.subtree_control'), '+pids');
    for (const directory of group.#directories()) {
      await mkdir(join(directory, INIT_GROUP));
      await mkdir(join(directory, JOBS_GROUP));
    }
    return group;
  }

  /**
   * The `cgroup.procs` files a process writes its pid into to enter the group (one per
   * hierarchy): what commands run in (`jobs` of a split group). The sandbox's setup enters there
   * too, so its cgroup namespace, made then, has that group as its root: every command sees its
   * cgroup as `/`. The init is moved out once it is ready (`shelterInit`).
   */
  procsFiles(): string[] {
    return this.#directories().map((directory) => join(this.#members(directory, 'jobs')[0]!, 'cgroup.procs'));
  }

  /**
   * Moves the sandbox's init (host pid `pid`) out of the jobs: with the host-side `unshare`
   * above it (`parent`) and the timer it runs (`own()`, read once it has moved: a timer forked
   * after the move starts where the init is), into `init` of a split group. Where the hierarchy
   * allows (cgroup v1, where pids is a hierarchy of its own) they go out of the process limit
   * too, to the parent group: the init's loop forks a `sleep` every 2 s, and a fork refused at the
   * limit would end the shell, and with it every process of the sandbox. On cgroup v2 they stay
   * under the limit (one hierarchy for all controllers). The init is also taken out of the OOM
   * killer's reach (`oom_score_adj` -1000, as root).
   */
  async shelterInit(pid: number, parent: number | undefined, own: () => Promise<readonly number[]>): Promise<void> {
    const hierarchies = new Map(this.places.map((place) => [place.directory, place]));
    for (const place of hierarchies.values()) {
      const pidsV1 = place.controller === 'pids' && place.version === 'v1';
      const target = join(pidsV1 ? place.directory : join(this.#directory(place), INIT_GROUP), 'cgroup.procs');
      await writeFile(target, String(pid));
      // Gone meanwhile (a timer that ended) or already there: nothing to move.
      for (const other of [...(parent === undefined ? [] : [parent]), ...(await own())]) await writeFile(target, String(other)).catch(() => undefined);
    }
    await writeFile(`/proc/${pid}/oom_score_adj`, '-1000').catch(() => undefined);
  }

  /**
   * How many tasks (processes and threads, zombies not yet reaped, forks under way) the jobs
   * group of a split group holds: 0 exactly when nothing a command started runs. undefined when
   * it cannot be told (not split, or no pids controller).
   */
  async jobTasks(): Promise<number | undefined> {
    const pids = this.#place('pids');
    if (!this.split || !pids) return undefined;
    try {
      return Number((await readFile(join(this.#directory(pids), JOBS_GROUP, 'pids.current'), 'utf8')).trim());
    } catch {
      return undefined;
    }
  }

  /** Whether its jobs can be frozen: a split group with v1's freezer, or on cgroup v2. */
  get freezable(): boolean {
    return this.split && canFreeze(this.places);
  }

  /**
   * Freezes every process of the jobs group (what commands started; the init runs on): the
   * kernel stops each at its next return to user space, so none is inside a write once this
   * resolves. Waits until the kernel reports the group frozen; false (and thawed again) when it
   * is not within `withinMs` (a task stuck in the kernel), or the group cannot be frozen.
   */
  async freezeJobs(withinMs: number): Promise<boolean> {
    const files = this.split ? this.#freezeFiles() : undefined;
    if (!files) return false;
    const deadline = Date.now() + withinMs;
    await writeFile(files.control, files.freeze);
    for (;;) {
      if (files.isFrozen(await readFile(files.state, 'utf8').catch(() => ''))) return true;
      if (Date.now() >= deadline) {
        await this.thawJobs();
        return false;
      }
      await delay(FREEZE_POLL_MS);
    }
  }

  /** Lets the jobs group run again (a no-op when it is not frozen, or cannot be). */
  async thawJobs(): Promise<void> {
    const files = this.split ? this.#freezeFiles() : undefined;
    if (files) await writeFile(files.control, files.thaw).catch(() => undefined);
  }

  /** The jobs group's freezer files: v1's freezer hierarchy, else any v2 group (`cgroup.freeze`). */
  #freezeFiles(): { control: string; state: string; freeze: string; thaw: string; isFrozen: (state: string) => boolean } | undefined {
    const v1 = this.#place('freezer');
    if (v1) {
      const state = join(this.#directory(v1), JOBS_GROUP, 'freezer.state');
      return { control: state, state, freeze: 'FROZEN', thaw: 'THAWED', isFrozen: (text) => text.trim() === 'FROZEN' };
    }
    const v2 = this.places.find((place) => place.version === 'v2');
    if (!v2) return undefined;
    const jobs = join(this.#directory(v2), JOBS_GROUP);
    return { control: join(jobs, 'cgroup.freeze'), state: join(jobs, 'cgroup.events'), freeze: '1', thaw: '0', isFrozen: (text) => /^frozen 1$/m.test(text) };
  }

  /**
   * How often the limits were hit since the group was made. Kernels differ in where they count a
   * hit in a split group: at the group whose limit was hit (and its ancestors), or at the group of
   * the task that hit it (its jobs group; older kernels' pids, cgroup v1); the larger is the count.
   */
  async counters(): Promise<LimitCounters> {
    const memory = this.#place('memory');
    const pids = this.#place('pids');
    const counted = (place: ControllerPlace, file: string, key: string) =>
      Math.max(...[this.#directory(place), ...this.#members(this.#directory(place), 'jobs')].map((group) => readNumberAfter(join(group, file), key)));
    return {
      oomKills: memory ? counted(memory, memory.version === 'v1' ? 'memory.oom_control' : 'memory.events', 'oom_kill') : 0,
      pidsRefusals: pids ? counted(pids, 'pids.events', 'max') : 0,
    };
  }

  /**
   * Host pids of the group's processes: every one (`all`), or only those of its jobs (`jobs`;
   * all of them in a group that is not split), read from every hierarchy.
   */
  async processes(which: 'all' | 'jobs' = 'all'): Promise<number[]> {
    const found = new Set<number>();
    for (const directory of this.#directories()) {
      for (const group of this.#members(directory, which)) {
        const text = await readFile(join(group, 'cgroup.procs'), 'utf8').catch(() => '');
        for (const pid of text.split('\n').filter(Boolean)) found.add(Number(pid));
      }
    }
    return [...found];
  }

  /**
   * SIGKILLs every process of the group (`which`: see `processes`) but those `keep` names at that
   * moment, again and again while new ones appear (a fork bomb forks while it is being killed),
   * for at most `withinMs`. True when only those (or nothing) are left.
   */
  async killAllExcept(keep: readonly number[] | (() => Promise<readonly number[]>), withinMs: number, which: 'all' | 'jobs' = 'all'): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const [all, kept] = await Promise.all([this.processes(which), typeof keep === 'function' ? keep() : keep]);
      const others = all.filter((pid) => !kept.includes(pid));
      if (others.length === 0) return true;
      for (const pid of others) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      if (Date.now() >= deadline) return false;
      await delay(POLL_MS);
    }
  }

  /** Removes the group (its children first) once its processes are gone (waits up to `withinMs` for them). Idempotent. */
  async remove(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (const directory of this.#directories()) {
      for (const group of [...this.#members(directory, 'all').filter((member) => member !== directory), directory]) {
        for (;;) {
          try {
            await rmdir(group);
            break;
          } catch (error) {
            if (errorCode(error) === 'ENOENT') break;
            if (errorCode(error) !== 'EBUSY' || Date.now() >= deadline) throw error;
            await delay(POLL_MS);
          }
        }
      }
    }
  }

  /** The groups under `directory` that hold processes: its children `init` and `jobs` when split, else itself. */
  #members(directory: string, which: 'all' | 'jobs'): string[] {
    if (!this.split) return [directory];
    return which === 'jobs' ? [join(directory, JOBS_GROUP)] : [join(directory, INIT_GROUP), join(directory, JOBS_GROUP)];
  }

  #place(controller: ControllerPlace['controller']): ControllerPlace | undefined {
    return this.places.find((place) => place.controller === controller);
  }

  #directory(place: ControllerPlace): string {
    return join(place.directory, this.name);
  }

  #directories(): string[] {
    return [...new Set(this.places.map((place) => this.#directory(place)))];
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
