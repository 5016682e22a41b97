/**
 * Checkpoints and checkouts share the store; garbage collection has it alone, so it never
 * deletes a blob a manifest being written (or a checkout reading) needs. Within this process;
 * `ProcessLock` (process-lock.ts) does the same among the processes sharing a store, and
 * `SnapshotStore` takes this lock first, then that one.
 */
export class StoreLock {
  #readers = 0;
  #exclusive: Promise<void> | null = null;
  #drained: (() => void) | null = null;

  async shared<T>(work: () => Promise<T>): Promise<T> {
    while (this.#exclusive) await this.#exclusive;
    this.#readers++;
    try {
      return await work();
    } finally {
      this.#readers--;
      if (this.#readers === 0) this.#drained?.();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.#exclusive) await this.#exclusive;
    let release!: () => void;
    this.#exclusive = new Promise((resolve) => (release = resolve));
    try {
      while (this.#readers > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      return await work();
    } finally {
      this.#drained = null;
      this.#exclusive = null;
      release();
    }
  }
}
