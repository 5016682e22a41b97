import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { ControllerPlace } from './cgroup-host';
import { ENTER_CGROUP_SCRIPT, EGRESS_LAUNCH_SCRIPT } from './launch-scripts';
import { LAUNCHER_PATH, launcherEnvironment } from './command-environment';
import { identify, isRunning, parentOf, type ProcessIdentity } from './process-start';
import { SandboxCgroup } from './sandbox-cgroup';
import { countSandboxProcesses, initsOwnHostPids } from './sandbox-processes';
import type { SandboxIdentity, SandboxUser } from './sandbox-identity';
import { hasLimits, type LimitCounters, type SandboxLimits } from './sandbox-limits';
import { egressArgv, egressResolver } from './sandbox-network';
import { holderInit } from './setup-script';
import { nsenterArgs, unshareArgs, type SandboxNamespaces, type SandboxSpec } from './sandbox-spec';
import { StartSlots } from './start-slots';

/** What identifies a started sandbox across daemon restarts (kept in a holder file). */
export interface SandboxRecord extends ProcessIdentity, SandboxNamespaces {
  /** Where its binds are inside (their targets, in order). Absent in records written before they were kept. */
  targets?: string[];
  /** The sandbox's root on the host, when not the caller's own ids. */
  identity?: SandboxIdentity;
  /** The ids inside of its users besides root (see `SandboxSpec.users`): who `launch` may run a command as. */
  users?: number[];
  /** Its cgroup (name and where), when it has limits; `split` in those made since commands run in a child group of their own (see SandboxCgroup). */
  cgroup?: { name: string; places: ControllerPlace[]; limits: SandboxLimits; split?: true };
}

/** A program and its arguments, ready for `spawn`. */
export interface Launch {
  /** A program found in the launcher's own PATH (`env`'s, fixed), never in one a caller chose. */
  file: string;
  args: string[];
  /** The environment to start `file` with (the command's own travels inside it: launcherEnvironment). */
  env: Record<string, string>;
}

const SETUP_ENV = { PATH: LAUNCHER_PATH };
const NSENTER = 'nsenter';
/**
 * How long a start may take before it is given up as hung. Generous on purpose: a loaded machine
 * slows a start down (seconds, not milliseconds), and the caller's own deadline (a provider call,
 * a request) is what should end the wait, not a shorter one here that fails a start about to succeed.
 */
const DEFAULT_READY_WITHIN_MS = 60_000;
const POLL_MS = 10;
/** How long a killed sandbox's cgroup may take to empty before it is removed. */
const CGROUP_EMPTY_WITHIN_MS = 5_000;
/**
 * How long freezing a sandbox's jobs may take: a task inside a slow system call delays it until
 * the call returns. Generous, as the start's deadline is: 2 s was missed by a job writing under
 * a CI machine's full disk load (provider-fs's layered checkpoint, a CI run of 2026-12-06), and a
 * checkpoint that fails because the machine is busy fails a caller who did nothing wrong; the
 * bound is for a task stuck in the kernel, which waiting longer would not free.
 */
const FREEZE_WITHIN_MS = 10_000;
/** Setups running at once in this process (one per core, at least two); more wait their turn. */
const START_SLOTS = new StartSlots(Math.max(2, availableParallelism()));

/**
 * A long-lived sandbox: its PID 1 (the holder) is a small init that waits and reaps (and exits
 * once the first bound directory is deleted on the host); commands
 * enter its namespaces with `nsenter`, so background jobs one command starts are there for the
 * next, and killing the holder kills everything inside — `setsid` or not (when a PID namespace's
 * init dies, the kernel kills the rest). The holder is identified by pid and start time, so a
 * holder started before a daemon restart is found again and a reused pid is never signalled.
 * With limits, every process of the sandbox (the holder, every command, their children) is in
 * one cgroup of its own, entered before it runs anything.
 */
export class NamespaceSandbox {
  private constructor(readonly record: SandboxRecord) {}

  /** How many setups run at once in this process; further starts wait for one to finish. */
  static readonly concurrentStarts = START_SLOTS.limit;

  /**
   * Builds the sandbox and waits until its root is ready; throws with the setup's error output
   * when it cannot, or when it is not ready within `readyWithinMs` of its setup starting (time
   * spent waiting for a free slot does not count). Callers that cannot wait that long stop
   * waiting at their own deadline.
   */
  static start(spec: SandboxSpec, readyWithinMs = DEFAULT_READY_WITHIN_MS): Promise<NamespaceSandbox> {
    return START_SLOTS.run(() => NamespaceSandbox.#build(spec, readyWithinMs));
  }

  static async #build(spec: SandboxSpec, readyWithinMs: number): Promise<NamespaceSandbox> {
    const resolver = spec.network === 'egress' && spec.egress ? egressResolver(spec.egress) : undefined;
    const unshare = ['unshare', ...unshareArgs(spec, holderInit(spec.binds[0]?.target ?? '/'), resolver)];
    const limits = hasLimits(spec.limits) && spec.cgroups && spec.cgroups.length > 0 ? spec.limits : undefined;
    const cgroup = limits ? await SandboxCgroup.create(spec.cgroups!, `sandbox-${randomBytes(8).toString('hex')}`, limits) : undefined;
    const entered = cgroup ? ['/bin/sh', '-c', ENTER_CGROUP_SCRIPT, 'sandbox-cgroup', ...cgroup.procsFiles(), '--', ...unshare] : unshare;
    const helper = spec.network === 'egress' && spec.egress ? egressArgv(spec.egress, spec.identity) : undefined;
    const argv = helper ? ['/bin/sh', '-c', EGRESS_LAUNCH_SCRIPT, 'sandbox-launch', String(helper.length), ...helper, ...entered] : entered;
    // A minimal environment: PID 1's /proc/1/environ is readable inside and must hold no secret.
    const child = spawn(argv[0]!, argv.slice(1), { env: SETUP_ENV, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
    });
    const hostPid = await new Promise<number | Error>((resolve) => {
      const timer = setTimeout(() => resolve(new Error(`not ready within ${readyWithinMs} ms`)), readyWithinMs);
      const settle = (value: number | Error) => {
        clearTimeout(timer);
        resolve(value);
      };
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const map = /^map (\d+)\n/.exec(stdout);
        if (map && spec.identity) {
          stdout = stdout.slice(map[0].length);
          mapIds(Number(map[1]), spec.identity, spec.users ?? []).then(
            () => child.stdin.write('go\n'),
            (error: unknown) => settle(new Error(`could not map the sandbox's ids: ${(error as Error).message}`)),
          );
        }
        const ready = /^ready (\d+)\n/.exec(stdout);
        if (ready) settle(Number(ready[1]));
      });
      child.on('error', (error) => settle(new Error(`unshare could not be started: ${error.message}`)));
      child.on('exit', (code, signal) => settle(new Error(`setup exited with ${code ?? signal}`)));
    });
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    if (hostPid instanceof Error) {
      if (child.exitCode === null && child.pid !== undefined) killGroup(child.pid);
      await cgroup?.killAllExcept([], CGROUP_EMPTY_WITHIN_MS).catch(() => undefined);
      await cgroup?.remove(CGROUP_EMPTY_WITHIN_MS).catch(() => undefined);
      throw new Error(`namespace sandbox did not start: ${hostPid.message}: ${lastLine(stderr) || 'no output'}`);
    }
    child.unref();
    await cgroup?.shelterInit(hostPid, await parentOf(hostPid), async () => ((await initsOwnHostPids(hostPid)) ?? []).map(Number)).catch(() => undefined);
    const identity = await identify(hostPid);
    if (!identity) throw new Error(`namespace sandbox did not start: its init exited: ${lastLine(stderr) || 'no output'}`);
    return new NamespaceSandbox({
      ...identity,
      network: spec.network,
      layout: 2,
      targets: spec.binds.map((bind) => bind.target),
      ...(spec.identity ? { identity: spec.identity } : {}),
      ...(spec.users && spec.users.length > 0 ? { users: spec.users.map((user) => user.id) } : {}),
      ...(cgroup && limits ? { cgroup: { name: cgroup.name, places: [...spec.cgroups!], limits, split: true as const } } : {}),
    });
  }

  /**
   * The sandbox `record` names when its holder still runs, else undefined. Its jobs are thawed:
   * a daemon killed inside `whileJobsFrozen` left them frozen, with nobody else to thaw them.
   */
  static async adopt(record: SandboxRecord): Promise<NamespaceSandbox | undefined> {
    if (!(await isRunning(record))) return undefined;
    await cgroupOf(record)?.thawJobs();
    return new NamespaceSandbox(record);
  }

  /**
   * Kills the holder `record` names — only if that very process still runs — and waits for it to
   * go, then removes the sandbox's cgroup (killing what is left in it: the host side of commands
   * that were running). False when something did not go within `withinMs`.
   */
  static async kill(record: SandboxRecord, withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    const cgroup = cgroupOf(record);
    // A frozen task does not die until it is thawed, and the holder, the init of their PID
    // namespace, does not finish dying before they have.
    await cgroup?.thawJobs();
    if (await isRunning(record)) {
      try {
        process.kill(record.pid, 'SIGKILL');
      } catch {
        // ESRCH: it went by itself.
      }
      while (await isRunning(record)) {
        if (Date.now() >= deadline) return false;
        await delay(POLL_MS);
      }
    }
    if (!cgroup) return true;
    const left = Math.max(0, deadline - Date.now());
    if (!(await cgroup.killAllExcept([], left))) return false;
    // An empty group that will not go (the kernel still tearing it down) is swept later; the sandbox is gone.
    await cgroup.remove(Math.max(0, deadline - Date.now())).catch(() => undefined);
    return true;
  }

  isRunning(): Promise<boolean> {
    return isRunning(this.record);
  }

  /**
   * How many processes commands started in the sandbox are alive (background jobs, `setsid`
   * children, commands still running; not zombies, not the sandbox's own init): 0 when nothing
   * they started can still change its files. 0 once the sandbox is gone. See countSandboxProcesses.
   */
  runningProcesses(): Promise<number> {
    const cgroup = cgroupOf(this.record);
    return countSandboxProcesses(this.record, cgroup && (() => cgroup.jobTasks()));
  }

  /** Whether `whileJobsFrozen` can pause its jobs (a cgroup with a freezer: see SandboxCgroup.freezable). */
  get freezable(): boolean {
    return cgroupOf(this.record)?.freezable ?? false;
  }

  /**
   * Runs `work` with every job of the sandbox frozen (see SandboxCgroup.freezeJobs), as `docker
   * commit` pauses a container: what they wrote stays as it is until `work` ends, and they go on
   * afterwards, none the wiser. Throws `JobsNotFrozenError`, without running `work`, when they
   * cannot be frozen (not freezable) or were not within `withinMs`.
   */
  async whileJobsFrozen<T>(work: () => Promise<T>, withinMs = FREEZE_WITHIN_MS): Promise<T> {
    const cgroup = cgroupOf(this.record);
    if (!cgroup?.freezable) throw new JobsNotFrozenError('the sandbox has no cgroup freezer');
    if (!(await cgroup.freezeJobs(withinMs))) throw new JobsNotFrozenError(`its processes did not all stop within ${withinMs} ms`);
    try {
      return await work();
    } finally {
      await cgroup.thawJobs();
    }
  }

  /**
   * How to run `command` (argv) at `cwd` inside the sandbox with `environment` (in its cgroup,
   * when it has one, before it runs anything), as root inside or as `user`, one of the sandbox's
   * users (its id inside; `TypeError` for one it does not have). The host side runs with a fixed
   * environment, never `environment` (see launcherEnvironment).
   */
  launch(cwd: string, command: readonly string[], environment: Readonly<Record<string, string>>, user?: number): Launch {
    if (user !== undefined && user !== 0 && !this.record.users?.includes(user)) throw new TypeError(`the sandbox has no user ${user}`);
    const args = nsenterArgs(this.record.pid, this.record, cwd, command, user || undefined);
    const cgroup = cgroupOf(this.record);
    const env = launcherEnvironment(environment);
    if (!cgroup) return { file: NSENTER, args, env };
    return { file: '/bin/sh', args: ['-c', ENTER_CGROUP_SCRIPT, 'sandbox-cgroup', ...cgroup.procsFiles(), '--', NSENTER, ...args], env };
  }

  /** The limits the sandbox runs under (none when it has no cgroup). */
  get limits(): SandboxLimits | undefined {
    return this.record.cgroup?.limits;
  }

  /** How often its limits were hit so far (zeros without a cgroup). */
  async limitCounters(): Promise<LimitCounters> {
    return (await cgroupOf(this.record)?.counters()) ?? { oomKills: 0, pidsRefusals: 0 };
  }

  /**
   * Kills every process of the sandbox but its init — background jobs included — for a runaway
   * that has taken its whole process limit (a fork bomb, whose processes outrun any group kill).
   * False when some were still appearing after `withinMs`.
   */
  async killAllButInit(withinMs: number): Promise<boolean> {
    const cgroup = cgroupOf(this.record);
    if (!cgroup) return true;
    // The init, the `unshare` above it and its timer are in a group of their own.
    if (cgroup.split) return cgroup.killAllExcept([], withinMs, 'jobs');
    // `unshare --kill-child` above the init: killing it would kill the init (and so the sandbox).
    const parent = await parentOf(this.record.pid);
    const init = parent === undefined ? [this.record.pid] : [this.record.pid, parent];
    // The init's timer is not the runaway's: killing it only makes the init start another.
    return cgroup.killAllExcept(async () => [...init, ...((await initsOwnHostPids(this.record.pid)) ?? []).map(Number)], withinMs);
  }

  kill(withinMs: number): Promise<boolean> {
    return NamespaceSandbox.kill(this.record, withinMs);
  }
}

/** A sandbox's jobs could not be frozen (see `NamespaceSandbox.whileJobsFrozen`). */
export class JobsNotFrozenError extends Error {
  override readonly name = 'JobsNotFrozenError';
}

function cgroupOf(record: SandboxRecord): SandboxCgroup | undefined {
  return record.cgroup ? SandboxCgroup.at(record.cgroup.places, record.cgroup.name, record.cgroup.split === true) : undefined;
}

/**
 * Writes the user and group maps of the sandbox whose setup runs as host pid `pid` (the caller
 * is root): its id 0 is the host's root — for the setup only, which drops it before anything
 * else runs —, its id 1 the sandbox identity and ids 2, 3… its further users' host identities
 * (the setup maps them to the users' ids inside). Each map in one write, as the kernel requires.
 */
async function mapIds(pid: number, identity: SandboxIdentity, users: readonly SandboxUser[]): Promise<void> {
  const lines = (root: number, hostIds: number[]) => [`0 0 1`, `1 ${root} 1`, ...hostIds.map((id, index) => `${index + 2} ${id} 1`), ''].join('\n');
  await writeFile(`/proc/${pid}/uid_map`, lines(identity.uid, users.map((user) => user.identity.uid)));
  await writeFile(`/proc/${pid}/gid_map`, lines(identity.gid, users.map((user) => user.identity.gid)));
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
