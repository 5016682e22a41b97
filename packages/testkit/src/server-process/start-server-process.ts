import { describeEnd, launchProcess, type ExitStatus, type LaunchOptions, type ProcessEnd } from './launch-process';
import type { OutputTail } from './output-tail';
import { ServerStartError } from './server-start-error';

export interface StartServerOptions extends LaunchOptions {
  /** The start succeeds at the first output line (stdout or stderr) matching this. */
  readyLine: RegExp;
  /** The start fails (and the process group is killed) past this many ms. */
  deadlineMs: number;
  /** The step named in errors (default `start`). */
  phase?: string;
  /** When the whole server's start began, if earlier steps came first (errors count from it). */
  startedAtMs?: number;
  /** Sent first by `stop()` (default SIGTERM; PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
}

/** A server process that printed its ready line. */
export interface ServerProcess {
  readonly pid: number;
  /** The output line that matched `readyLine`. */
  readonly readyLine: string;
  readonly tail: OutputTail;
  /** Resolves when the process has exited (null code and signal if it never ran). */
  readonly exited: Promise<ExitStatus>;
  alive(): boolean;
  /**
   * Sends `signal` (default: `stopSignal`) to the server, then SIGKILL to its whole group after
   * `graceMs` (default 15 s); resolves once it has exited. SIGKILL itself goes to the group at once.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ExitStatus>;
  /** SIGKILL to its whole group (a crash: nothing flushed); resolves once it has exited. */
  kill(): Promise<ExitStatus>;
}

function statusOf(end: ProcessEnd): ExitStatus {
  return end.kind === 'exit' ? end.status : { code: null, signal: null };
}

/**
 * Spawns a server and resolves once it prints a line matching `readyLine`. Bounded: past
 * `deadlineMs`, or when it exits or cannot be spawned first, the start rejects with a
 * `ServerStartError` naming the server, the phase and the last lines of its output — after its
 * whole process group is killed, so nothing is left behind.
 */
export async function startServerProcess(options: StartServerOptions): Promise<ServerProcess> {
  const startedAtMs = options.startedAtMs ?? performance.now();
  let readyLine: string | undefined;
  let markReady!: () => void;
  const ready = new Promise<'ready'>((resolve) => (markReady = () => resolve('ready')));
  const launched = launchProcess({
    ...options,
    onLine: (line, stream) => {
      options.onLine?.(line, stream);
      if (readyLine === undefined && options.readyLine.test(line)) {
        readyLine = line;
        markReady();
      }
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, options.deadlineMs - (performance.now() - startedAtMs)));
  });
  const outcome = await Promise.race([ready, deadline, launched.ended]);
  clearTimeout(timer);
  const exited = launched.ended.then(statusOf);
  if (outcome !== 'ready') {
    if (outcome === 'deadline') launched.signalGroup('SIGKILL');
    const end = outcome === 'deadline' ? await exited.then(() => undefined) : outcome;
    throw new ServerStartError({
      server: options.server,
      phase: options.phase ?? 'start',
      reason: end ? describeEnd(end, options.command) : `no line matching ${options.readyLine} within ${options.deadlineMs} ms`,
      elapsedMs: performance.now() - startedAtMs,
      output: launched.tail.text(),
      cause: end?.kind === 'spawn-error' ? end.error : undefined,
    });
  }
  const stop = async (signal = options.stopSignal ?? 'SIGTERM', graceMs = 15_000): Promise<ExitStatus> => {
    if (!launched.alive()) return exited;
    if (signal === 'SIGKILL') launched.signalGroup(signal);
    else launched.signal(signal);
    const escalate = setTimeout(() => launched.signalGroup('SIGKILL'), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(escalate);
    }
  };
  return {
    pid: launched.child.pid!,
    readyLine: readyLine!,
    tail: launched.tail,
    exited,
    alive: launched.alive,
    stop,
    kill: () => stop('SIGKILL'),
  };
}
