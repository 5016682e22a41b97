/**
 * The mutating calls (exec, writes) one backend has running at its provider in this process,
 * counted until the provider's promise settles — not until core stops waiting. A call core gave
 * up on at its deadline has released the runtime's lock, yet may still change the workspace (an
 * exec whose sandbox was slow to start runs late): a checkpoint meanwhile must not record the
 * runtime clean. Shared by every view of the backend (see TrackedBackend.withCalls).
 */
export class MutationsInFlight {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Runs `call`, counted until it settles. */
  async track<T>(call: () => Promise<T>): Promise<T> {
    this.#count += 1;
    try {
      return await call();
    } finally {
      this.#count -= 1;
    }
  }
}
