import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { identify, isRunning, type ProcessIdentity } from './process-start';
import { countSandboxProcesses } from './sandbox-processes';
import { holderInit } from './setup-script';
import { nsenterArgs, unshareArgs, type SandboxSpec } from './sandbox-spec';
import { StartSlots } from './start-slots';

/** What identifies a started sandbox across daemon restarts (kept in a holder file). */
export interface SandboxRecord extends ProcessIdentity {
  network: boolean;
}

/** A program and its arguments, ready for `spawn`. */
export interface Launch {
  file: string;
  args: string[];
}

const SETUP_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
/**
 * How long a start may take before it is given up as hung. Generous on purpose: a loaded machine
 * slows a start down (seconds, not milliseconds), and the caller's own deadline (a provider call,
 * a request) is what should end the wait, not a shorter one here that fails a start about to succeed.
 */
const DEFAULT_READY_WITHIN_MS = 60_000;
const POLL_MS = 10;
/** Setups running at once in this process (one per core, at least two); more wait their turn. */
const START_SLOTS = new StartSlots(Math.max(2, availableParallelism()));

/**
 * A long-lived sandbox: its PID 1 (the holder) is a small init that waits and reaps (and exits
 * once the first bound directory is deleted on the host); commands
 * enter its namespaces with `nsenter`, so background jobs one command starts are there for the
 * next, and killing the holder kills everything inside — `setsid` or not (when a PID namespace's
 * init dies, the kernel kills the rest). The holder is identified by pid and start time, so a
 * holder started before a daemon restart is found again and a reused pid is never signalled.
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
    // A minimal environment: PID 1's /proc/1/environ is readable inside and must hold no secret.
    const child = spawn('unshare', unshareArgs(spec, holderInit(spec.binds[0]?.target ?? '/')), {
      env: SETUP_ENV,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
        const ready = /^ready (\d+)\n/.exec(stdout);
        if (ready) settle(Number(ready[1]));
      });
      child.on('error', (error) => settle(new Error(`unshare could not be started: ${error.message}`)));
      child.on('exit', (code, signal) => settle(new Error(`setup exited with ${code ?? signal}`)));
    });
    child.stdout.destroy();
    child.stderr.destroy();
    if (hostPid instanceof Error) {
      if (child.exitCode === null && child.pid !== undefined) killGroup(child.pid);
      throw new Error(`namespace sandbox did not start: ${hostPid.message}: ${lastLine(stderr) || 'no output'}`);
    }
    child.unref();
    const identity = await identify(hostPid);
    if (!identity) throw new Error(`namespace sandbox did not start: its init exited: ${lastLine(stderr) || 'no output'}`);
    return new NamespaceSandbox({ ...identity, network: spec.network });
  }

  /** The sandbox `record` names when its holder still runs, else undefined. */
  static async adopt(record: SandboxRecord): Promise<NamespaceSandbox | undefined> {
    return (await isRunning(record)) ? new NamespaceSandbox(record) : undefined;
  }

  /** Kills the holder `record` names — only if that very process still runs — and waits for it to go. */
  static async kill(record: SandboxRecord, withinMs: number): Promise<boolean> {
    if (!(await isRunning(record))) return true;
    try {
      process.kill(record.pid, 'SIGKILL');
    } catch {
      // ESRCH: it went by itself.
    }
    const deadline = Date.now() + withinMs;
    while (await isRunning(record)) {
      if (Date.now() >= deadline) return false;
      await delay(POLL_MS);
    }
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
    return countSandboxProcesses(this.record);
  }

  /** How to run `command` (argv) at `cwd` inside the sandbox. */
  launch(cwd: string, command: readonly string[]): Launch {
    return { file: 'nsenter', args: nsenterArgs(this.record.pid, this.record.network, cwd, command) };
  }

  kill(withinMs: number): Promise<boolean> {
    return NamespaceSandbox.kill(this.record, withinMs);
  }
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
