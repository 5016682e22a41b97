/**
 * Runs at most `limit` tasks at once; the others wait their turn, first come first served. Used
 * to bound concurrent sandbox starts: twenty setups at once on two cores all crawl together,
 * while two at a time finish one after another, the first ones early.
 */
export class StartSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('StartSlots needs a limit of at least 1');
    this.#free = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    }
  }
}
