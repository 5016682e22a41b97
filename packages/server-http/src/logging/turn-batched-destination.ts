import { pino } from 'pino';

/** What pino writes log lines to. */
export interface LogDestination {
  write(line: string): void;
  /** Writes every line buffered so far, synchronously. */
  flushSync(): void;
}

/** Every destination's flush, run by one `exit` listener (not one listener per destination). */
const flushesOnExit = new Set<() => void>();
const flushAllOnExit = () => {
  for (const flush of flushesOnExit) flush();
};

/**
 * A pino destination (a file descriptor or path) that writes each event-loop turn's log lines
 * with one synchronous write at the end of that turn, instead of one write per line.
 *
 * Under load a turn answers many requests; with one access-log line each, a write per line was
 * the largest single cost of a request after the response itself (the system call, and the cost
 * of re-entering the kernel, on every request). Lines still reach the descriptor in the same
 * turn that logged them, so tailing the log sees no delay, and `process.exit()`, an uncaught
 * exception or a signal handled by the program flushes what the turn had buffered. Only a kill
 * the process cannot observe (SIGKILL, the OOM killer) can lose lines, and only the current
 * turn's. Writes go through sonic-boom (what `pino.destination` builds), which retries a
 * non-blocking pipe's EAGAIN.
 */
export function turnBatchedDestination(dest: number | string): LogDestination {
  const stream = pino.destination({ dest, sync: true });
  let pending = '';
  let scheduled = false;
  const flushSync = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const lines = pending;
    pending = '';
    stream.write(lines);
  };
  if (flushesOnExit.size === 0) process.on('exit', flushAllOnExit);
  flushesOnExit.add(flushSync);
  return {
    write(line) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushSync);
      }
    },
    flushSync,
  };
}
