import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { InvalidRequestError, ProviderError, type ExecResult } from '@runtimectl/provider';
import { BoundedOutput } from './bounded-output';
import type { CommandWatch } from './command-watch';
import { groupAlive, terminateGroup, type ProcessGroups } from './process-groups';

/**
 * How long to keep reading after the shell exited while something it started in the background
 * still holds its stdout/stderr open. Then the pipes are closed: exec returns, the background
 * job keeps running (in the workspace's process groups, killed on release).
 */
const DRAIN_AFTER_EXIT_MS = 100;

export interface RunCommandOptions {
  /** The provider its errors name. */
  providerId: string;
  command: string;
  shell: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number | undefined;
  maxOutputBytes: number;
  /** Between SIGTERM and SIGKILL to the command's process group on timeout. */
  killGraceMs: number;
  groups: ProcessGroups;
  /** Argv put before `<shell> -c <command>`: a program that sets limits, then execs the rest. */
  prefix?: string[];
  /** Watches the started process group; its note (if any) ends the answer's stderr, and a watch that stopped the command takes its exit code away. */
  watch?: (pgid: number) => CommandWatch;
  /**
   * How to start `<shell> -c <command>` inside the workspace's sandbox (a program and arguments
   * that enter `cwd` themselves, and the environment to start them with — `env` reaches the
   * command inside, never the host side of the launch); absent or undefined: a host process in `cwd`.
   */
  launch?: (argv: string[], env: Record<string, string>) => Promise<{ file: string; args: string[]; env: Record<string, string> } | undefined>;
}

async function started(child: ChildProcess, shell: string, providerId: string): Promise<number> {
  try {
    await once(child, 'spawn');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') throw new InvalidRequestError(`shell ${shell} cannot be run (${code})`, { shell });
    throw new ProviderError(providerId, 'exec', `could not start ${shell}: ${code ?? 'error'}`, error);
  }
  return child.pid!;
}

/** Resolves true when the pipes closed within `ms`, false otherwise; never leaves a timer behind. */
function closedWithin(closed: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([closed.then(() => true), late]).finally(() => clearTimeout(timer));
}

/**
 * Runs `<shell> -c <command>` as the leader of a new process group (`detached`), so a timeout
 * can signal everything it started: SIGTERM to the group, SIGKILL after the grace. stdin is
 * /dev/null; stdout and stderr are read to the end and capped at `maxOutputBytes` each.
 */
export async function runCommand(options: RunCommandOptions): Promise<ExecResult> {
  const argv = [...(options.prefix ?? []), options.shell, '-c', options.command];
  const sandboxed = await options.launch?.(argv, options.env);
  const [file, ...args] = sandboxed ? [sandboxed.file, ...sandboxed.args] : argv;
  const child = spawn(file!, args, {
    cwd: sandboxed ? '/' : options.cwd,
    env: sandboxed ? sandboxed.env : options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = new BoundedOutput(options.maxOutputBytes);
  const stderr = new BoundedOutput(options.maxOutputBytes);
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
  const closed = once(child, 'close');
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  closed.catch(() => {});
  exited.catch(() => {});

  const pgid = await started(child, options.shell, options.providerId);
  options.groups.add(pgid);
  const watch = options.watch?.(pgid);

  let timedOut = false;
  let killing: Promise<void> | undefined;
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          killing = terminateGroup(pgid, options.killGraceMs);
        }, options.timeoutMs);

  const [exitCode] = await exited;
  clearTimeout(timer);
  if (!(await closedWithin(closed, DRAIN_AFTER_EXIT_MS))) {
    child.stdout!.destroy();
    child.stderr!.destroy();
  }
  if (killing) await killing;
  if (!groupAlive(pgid)) options.groups.prune();
  const outcome = await watch?.finish(timedOut || exitCode !== 0);

  return {
    stdout: stdout.bytes(),
    stderr: outcome === undefined ? stderr.bytes() : Buffer.concat([stderr.bytes(), Buffer.from(outcome.note)]),
    exitCode: timedOut || outcome?.stopped ? null : exitCode,
    timedOut,
    truncated: stdout.truncated || stderr.truncated,
  };
}
