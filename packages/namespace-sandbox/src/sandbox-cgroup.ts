import { readFileSync } from 'node:fs';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { ControllerPlace } from './cgroup-host';
import type { LimitCounters, SandboxLimits } from './sandbox-limits';

const CPU_PERIOD_US = 100_000;
const POLL_MS = 20;
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

/**
 * One sandbox's cgroup: a group per hierarchy in use (cgroup v1 has one per controller, v2 one
 * for all), named after the sandbox. Every process the sandbox runs is put in it before it runs
 * anything (see `procsFiles`), so the limits hold for every command and background job alike.
 */
export class SandboxCgroup {
  private constructor(
    readonly name: string,
    private readonly places: readonly ControllerPlace[],
  ) {}

  /** The group `name` under `places` (made by `create`, or found again after a restart). */
  static at(places: readonly ControllerPlace[], name: string): SandboxCgroup {
    if (!GROUP_NAME.test(name)) throw new TypeError(`not a sandbox group name: ${name}`);
    return new SandboxCgroup(name, places);
  }

  /** Makes the group and writes `limits` (unset kinds: no limit). Throws when a write is refused. */
  static async create(places: readonly ControllerPlace[], name: string, limits: SandboxLimits): Promise<SandboxCgroup> {
    const group = SandboxCgroup.at(places, name);
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
    return group;
  }

  /** The `cgroup.procs` files a process writes its pid into to enter the group (one per hierarchy). */
  procsFiles(): string[] {
    return this.#directories().map((directory) => join(directory, 'cgroup.procs'));
  }

  /**
   * Takes the sandbox's init (host pid `pid`) out of the process limit, where its hierarchy
   * allows (cgroup v1, where pids is a hierarchy of its own: the init goes to the parent group),
   * and out of the OOM killer's reach (`oom_score_adj` -1000, as root). Its loop forks a `sleep`
   * every 2 s, and a fork refused at the limit would end the shell, and with it every process of
   * the sandbox. On cgroup v2 it stays under the limit (one hierarchy for all controllers).
   */
  async shelterInit(pid: number): Promise<void> {
    const pids = this.#place('pids');
    if (pids?.version === 'v1') await writeFile(join(pids.directory, 'cgroup.procs'), String(pid));
    await writeFile(`/proc/${pid}/oom_score_adj`, '-1000').catch(() => undefined);
  }

  /** How often the limits were hit since the group was made. */
  async counters(): Promise<LimitCounters> {
    const memory = this.#place('memory');
    const pids = this.#place('pids');
    return {
      oomKills: memory ? readNumberAfter(join(this.#directory(memory), memory.version === 'v1' ? 'memory.oom_control' : 'memory.events'), 'oom_kill') : 0,
      pidsRefusals: pids ? readNumberAfter(join(this.#directory(pids), 'pids.events'), 'max') : 0,
    };
  }

  /** Host pids of the group's processes (from one hierarchy: every hierarchy holds the same ones). */
  async processes(): Promise<number[]> {
    const [first] = this.procsFiles();
    if (!first) return [];
    const text = await readFile(first, 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map(Number);
  }

  /**
   * SIGKILLs every process of the group but those `keep` names at that moment (the sandbox's
   * init, the host-side `unshare` it runs under, whose death would take the init with it, and the
   * init's own timer, which it starts anew), again and again while new ones appear (a fork bomb
   * forks while it is being killed), for at most `withinMs`. True when only those (or nothing)
   * are left.
   */
  async killAllExcept(keep: readonly number[] | (() => Promise<readonly number[]>), withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const [all, kept] = await Promise.all([this.processes(), typeof keep === 'function' ? keep() : keep]);
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

  /** Removes the group once its processes are gone (waits up to `withinMs` for them). Idempotent. */
  async remove(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (const directory of this.#directories()) {
      for (;;) {
        try {
          await rmdir(directory);
          break;
        } catch (error) {
          if (errorCode(error) === 'ENOENT') break;
          if (errorCode(error) !== 'EBUSY' || Date.now() >= deadline) throw error;
          await delay(POLL_MS);
        }
      }
    }
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
