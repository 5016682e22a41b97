import { describeEnd, launchProcess, type LaunchOptions } from './launch-process';
import { ServerStartError } from './server-start-error';

export interface RunToEndOptions extends LaunchOptions {
  /** The step of the server's start this process is (`initdb`), named in errors. */
  phase: string;
  /** Fails (the process group killed) past this many ms from `startedAtMs`. */
  deadlineMs: number;
  /** When the whole server's start began (default: now). */
  startedAtMs?: number;
}

/**
 * Runs one step of a server's start that is a process of its own (`initdb`) and resolves with
 * its output once it exits with code 0. Anything else — another exit, a failed spawn, the
 * deadline (its group is then killed) — rejects with a `ServerStartError` quoting its output.
 */
export async function runProcessToEnd(options: RunToEndOptions): Promise<string> {
  const startedAtMs = options.startedAtMs ?? performance.now();
  const launched = launchProcess(options);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, options.deadlineMs - (performance.now() - startedAtMs)));
  });
  const outcome = await Promise.race([launched.ended, deadline]);
  clearTimeout(timer);
  if (outcome !== 'deadline' && outcome.kind === 'exit' && outcome.status.code === 0) return launched.tail.text();
  if (outcome === 'deadline') {
    launched.signalGroup('SIGKILL');
    await launched.ended;
  }
  throw new ServerStartError({
    server: options.server,
    phase: options.phase,
    reason: outcome === 'deadline' ? `${options.phase} did not finish within ${options.deadlineMs} ms` : `${options.phase} ${describeEnd(outcome, options.command)}`,
    elapsedMs: performance.now() - startedAtMs,
    output: launched.tail.text(),
    cause: outcome !== 'deadline' && outcome.kind === 'spawn-error' ? outcome.error : undefined,
  });
}
