import { setImmediate } from 'node:timers/promises';

/**
 * Small file work is done in direct system calls, not through libuv's thread pool: on a busy
 * machine every thread-pool round trip waits for two thread wake-ups, which costs many times
 * the call itself (the benchmark's 10,000-file checkpoint spent 9 of its 11 s there). The
 * event loop gets a turn every `SLICE_MS` so requests keep being served meanwhile.
 */
export const SLICE_MS = 10;

/** Yields to the event loop when a slice of synchronous work is used up. */
export class TimeSlices {
  #since = performance.now();

  async yieldIfDue(): Promise<void> {
    if (this.due()) await this.yield();
  }

  /** Whether the slice is used up (checked without an await: callers in tight loops await only then). */
  due(): boolean {
    return performance.now() - this.#since >= SLICE_MS;
  }

  async yield(): Promise<void> {
    await setImmediate();
    this.#since = performance.now();
  }
}
