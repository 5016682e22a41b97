/**
 * Runs a command on a real pseudo-terminal through the python3 relay (`pty-relay-script.ts`).
 * The relay is the process envd reports (its pid, its exit); the command runs in a session of
 * its own, so signals go to the relay's group and to every process of that session.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { ConnectRpcError } from './connect-framing.js';
import { PTY_RELAY_SCRIPT } from './pty-relay-script.js';

export interface PtySize {
  cols: number;
  rows: number;
}

export interface PtyRelay {
  readonly child: ChildProcess;
  /** The pid of the command, leader of its own session. */
  readonly sessionId: number;
  /** Changes the terminal's size; false once the relay is gone. */
  resize(size: PtySize): boolean;
}

/** Only PATH: the relay reads the command's environment from its control socket, never its own. */
const RELAY_ENV = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' };

/**
 * Starts `argv` with `env` on a terminal of `size`, the relay's cwd `cwd` (the command's, when
 * it runs on the host). Throws ConnectRpcError when python3 or the command cannot be started.
 */
export async function startPtyRelay(argv: string[], env: Record<string, string>, cwd: string | undefined, size: PtySize): Promise<PtyRelay> {
  const child = spawn('python3', ['-I', '-c', PTY_RELAY_SCRIPT], {
    env: RELAY_ENV,
    ...(cwd ? { cwd } : {}),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const control = child.stdio[3] as Duplex;
  control.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  child.stderr?.resume();
  control.write(`${JSON.stringify({ argv, env, cols: size.cols, rows: size.rows })}\n`);
  const sessionId = await new Promise<number>((resolve, reject) => {
    let received = '';
    const fail = (message: string): void => reject(new ConnectRpcError('internal', `error starting process: ${message}`));
    control.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const match = /^pid (\d+)\n/.exec(received);
      if (match) resolve(Number(match[1]));
    });
    child.once('error', (error) => fail(`the PTY relay needs python3: ${error.message}`));
    child.once('exit', (code, signal) => fail(`the PTY relay exited with ${code ?? signal}`));
  });
  return {
    child,
    sessionId,
    resize({ cols, rows }) {
      if (control.destroyed || child.exitCode !== null || child.signalCode !== null) return false;
      control.write(`resize ${cols} ${rows}\n`);
      return true;
    },
  };
}

/**
 * Signals every process of session `sessionId`, as the host's /proc lists them (a namespaced
 * sandbox's processes are there with their host pids). Processes that left the session
 * (`setsid`) are not reached; the sandbox's kill still ends them with its namespace.
 */
export async function signalSession(sessionId: number, signal: NodeJS.Signals): Promise<void> {
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      // Fields after the command name (which may hold spaces and parentheses): state, ppid, pgrp, session.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[3]) !== sessionId) return;
      try {
        process.kill(Number(pid), signal);
      } catch {
        // gone meanwhile
      }
    }),
  );
}
