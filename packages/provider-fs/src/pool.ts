/**
 * At most `concurrency` tasks at once, the rest queued in order. File work (reads, writes,
 * fsyncs) goes through libuv's thread pool: a few in flight keep the disk and both cores busy
 * where one at a time pays every round trip's latency in turn.
 */
export class Limiter {
  #running = 0;
  readonly #queue: (() => void)[] = [];

  constructor(readonly concurrency: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.concurrency) await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      this.#queue.shift()?.();
    }
  }
}

/** Runs `task` on every item, `concurrency` at a time; after every started task settled, throws the first error. */
export async function forEachLimited<T>(items: Iterable<T>, concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const limiter = new Limiter(concurrency);
  await settleAll([...items].map((item) => limiter.run(() => task(item))));
}

/** Waits for every promise to settle, then throws the first rejection (no task left running behind an error). */
export async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** How many file operations run at once in a checkpoint or checkout. */
export const FILE_CONCURRENCY = 8;
