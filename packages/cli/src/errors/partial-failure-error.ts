/**
 * A multi-step command (fork) whose first step took effect before a later one failed: the
 * error line says what was done, so the user does not retry blindly.
 */
export class PartialFailureError extends Error {
  constructor(
    readonly done: string,
    cause: unknown,
  ) {
    super(done, { cause });
    this.name = 'PartialFailureError';
  }
}
