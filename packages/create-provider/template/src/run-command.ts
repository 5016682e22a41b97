import { spawn } from 'node:child_process';
import type { ExecResult } from '@runtimectl/provider';

/** How long a command gets between SIGTERM and SIGKILL once its timeout passed. */
const KILL_GRACE_MS = 1_000;
/**
 * How long output is still read after the shell exited. A background job that kept the shell's
 * stdout open (`sleep 60 &` without a redirect) would otherwise hold the answer until it ends.
 */
const DRAIN_AFTER_EXIT_MS = 1_000;

export interface CommandRequest {
  shell: string;
  command: string;
  /** A real directory inside the workspace. */
  cwd: string;
  /** Exactly what the command sees: never this process's environment. */
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Called with the command's process group, which its background jobs share. */
  onStarted(processGroup: number): void;
}

/** Keeps the first `maxBytes` of a stream and reads the rest away, so the command never blocks on a full pipe. */
class CappedOutput {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;

  constructor(readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    const room = this.maxBytes - this.#kept;
    if (chunk.byteLength > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.#chunks.push(part);
    this.#kept += part.byteLength;
  }

  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.#chunks));
  }
}

/** Sends `signal` (0: none, only checks) to a process group; false when the group has ended. */
export function signalProcessGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `<shell> -c <command>` as the leader of a new process group. On timeout the whole group
 * (the shell, its children and background jobs) gets SIGTERM, then SIGKILL after a grace period,
 * and the answer says `timedOut` with no exit code. A non-zero exit is a result, not an error.
 */
export function runCommand(request: CommandRequest): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(request.shell, ['-c', request.command], {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new CappedOutput(request.maxOutputBytes);
    const stderr = new CappedOutput(request.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    if (child.pid !== undefined) request.onStarted(child.pid);

    let timedOut = false;
    const signalGroup = (signal: NodeJS.Signals) => child.pid !== undefined && signalProcessGroup(child.pid, signal);
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
    }, request.timeoutMs);

    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', () => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_AFTER_EXIT_MS).unref();
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({
        stdout: stdout.bytes(),
        stderr: stderr.bytes(),
        exitCode: timedOut ? null : code,
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
      });
    });
  });
}
