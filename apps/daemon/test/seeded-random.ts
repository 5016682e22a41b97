import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Reproducible choices for randomized tests: the same seed gives the same sequence of choices. */
export class SeededRandom {
  readonly #rng;

  constructor(readonly seed: number) {
    this.#rng = xoroshiro128plus(seed);
  }

  /** An integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.#rng, from, to);
  }

  /** true with probability `percent` / 100. */
  chance(percent: number): boolean {
    return this.int(1, 100) <= percent;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** Random bytes (not for secrets: they follow the seed). */
  bytes(length: number): Buffer {
    return Buffer.from(Array.from({ length }, () => this.int(0, 255)));
  }

  /** An independent generator derived from this one (one per worker). */
  fork(): SeededRandom {
    return new SeededRandom(this.int(0, 2 ** 31 - 1));
  }
}
