import { RuntimectlError } from '@runtimectl/core';

/** What is running: a test, or the teardown after it. */
export type DeadlinePhase = 'test' | 'teardown';

/**
 * Fails a provider call still pending shortly before the running test or hook times out, with an
 * error naming the call — instead of vitest's bare "Test timed out", which names nothing. A typed
 * `provider_timeout` error, so core passes it through unchanged when it made the call.
 */
export class CallDeadline {
  #phase: DeadlinePhase = 'test';
  #timeoutMs = 0;
  #at = Number.POSITIVE_INFINITY;

  /** From now on, calls must settle before `timeoutMs` (the phase's own timeout) less a margin runs out. */
  start(phase: DeadlinePhase, timeoutMs: number): void {
    this.#phase = phase;
    this.#timeoutMs = timeoutMs;
    // Late enough for any call that could still finish in time, early enough to beat vitest's timer.
    this.#at = performance.now() + timeoutMs - Math.min(2_000, Math.ceil(timeoutMs / 10));
  }

  /** `work()`, or the error naming `call` when it has not settled by the deadline. */
  settle<T>(call: string, work: () => Promise<T>): Promise<T> {
    const result = Promise.resolve().then(work);
    if (this.#at === Number.POSITIVE_INFINITY) return result;
    const startedAt = performance.now();
    const { phase, timeoutMs } = { phase: this.#phase, timeoutMs: this.#timeoutMs };
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const waitedMs = Math.round(performance.now() - startedAt);
        const message = `provider call ${call} did not settle within ${waitedMs} ms (the ${phase} times out after ${timeoutMs} ms)`;
        reject(new RuntimectlError('provider_timeout', message, { details: { call, waited_ms: waitedMs } }));
      }, Math.max(0, this.#at - startedAt));
    });
    return Promise.race([result, expired]).finally(() => clearTimeout(timer));
  }
}
