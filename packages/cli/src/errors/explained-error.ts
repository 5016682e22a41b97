/**
 * A daemon error a command explains in its own terms (what it was doing, what to run instead):
 * the line is `line`; the code, exit code, details and request id stay the daemon's (`cause`).
 */
export class ExplainedError extends Error {
  constructor(
    readonly line: string,
    cause: unknown,
  ) {
    super(line, { cause });
    this.name = 'ExplainedError';
  }
}
