export interface ServerStartFailure {
  /** The server, as a reader knows it: `PostgreSQL`, `runtimed node-1`, `e2b emulator`. */
  server: string;
  /** The step that did not finish: `initdb`, `start`, `connect`, `banner` … */
  phase: string;
  /** What went wrong in that step: `no ready line within 30000 ms`, `exited with code 1` … */
  reason: string;
  /** Time since the server's start began. */
  elapsedMs: number;
  /** The last lines of the server's own output (see `OutputTail`). */
  output: string;
  cause?: unknown;
}

/**
 * A test server that did not start: which one, in which phase, why, and the last lines it
 * printed — everything a reader of a CI log needs, in the message itself. Whatever the start
 * had launched is stopped before this is thrown.
 */
export class ServerStartError extends Error {
  readonly server: string;
  readonly phase: string;
  readonly reason: string;
  readonly elapsedMs: number;
  readonly output: string;

  constructor(failure: ServerStartFailure) {
    super(
      `${failure.server} did not start: ${failure.reason} (phase: ${failure.phase}, after ${Math.round(failure.elapsedMs)} ms)\n` +
        `--- last lines of its output ---\n${failure.output}`,
      failure.cause === undefined ? undefined : { cause: failure.cause },
    );
    this.name = 'ServerStartError';
    this.server = failure.server;
    this.phase = failure.phase;
    this.reason = failure.reason;
    this.elapsedMs = failure.elapsedMs;
    this.output = failure.output;
  }

  /** Works across copies of this package (the bench and the tests may load different builds). */
  static isInstance(error: unknown): error is ServerStartError {
    return error instanceof Error && error.name === 'ServerStartError' && 'phase' in error;
  }
}
