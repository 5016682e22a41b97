import { ServerStartError } from './server-start-error';

export interface StepDeadline {
  /** The server whose start this step is part of. */
  server: string;
  /** The step, named in errors: `connect`, `create schema`, `listen` … */
  phase: string;
  /** The step fails past this many ms from `startedAtMs`. */
  deadlineMs: number;
  /** When the whole start began (default: now). */
  startedAtMs?: number;
  /** What to quote as the server's output when the step fails (its log tail, if it has one). */
  output?: () => string;
}

/**
 * An in-process step of a server's start (a connection, a listen, a schema) under the start's
 * deadline: a module-level `await` bound by no test timeout can then wait only so long. A step
 * that fails or runs past the deadline rejects with a `ServerStartError`; if it finishes after
 * the deadline, `discard` receives what it produced so nothing is left open.
 */
export async function withinDeadline<T>(deadline: StepDeadline, step: () => Promise<T>, discard?: (late: T) => unknown): Promise<T> {
  const startedAtMs = deadline.startedAtMs ?? performance.now();
  const work = step();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), Math.max(0, deadline.deadlineMs - (performance.now() - startedAtMs)));
  });
  const fail = (reason: string, cause?: unknown) =>
    new ServerStartError({
      server: deadline.server,
      phase: deadline.phase,
      reason,
      elapsedMs: performance.now() - startedAtMs,
      output: deadline.output?.() ?? '(no output kept for this step)',
      cause,
    });
  try {
    const outcome = await Promise.race([work.then((value) => ({ value })), expired]);
    if (outcome !== 'deadline') return outcome.value;
  } catch (error) {
    throw fail((error as Error).message ?? String(error), error);
  } finally {
    clearTimeout(timer);
  }
  void work.then((late) => discard?.(late), () => undefined);
  throw fail(`${deadline.phase} did not finish within ${deadline.deadlineMs} ms`);
}
