/**
 * When the policy passes run (TTL closes, idle pauses, retention): every `intervalMs`
 * (`retention.interval_ms`) from the node's start to its stop, on a timer of their own — never
 * on the fleet heartbeat's (every `lease_ms / 3`, maintenance every `lease_ms`), which made a
 * 1 s interval mean 15 s. A pass never overlaps the previous one: the next starts `intervalMs`
 * after it ended. A failed pass (the store unreachable) is tried again at the next one. The
 * timer is unref'd: it never keeps a process alive.
 */
export class PolicySchedule {
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
  ) {}

  /** Runs a pass every interval from now on; idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#arm();
  }

  /** No pass starts after this (one in flight finishes on its own). */
  stop(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.pass()
        .catch(() => undefined)
        .then(() => {
          if (this.#running) this.#arm();
        });
    }, this.intervalMs);
    this.#timer.unref();
  }
}
