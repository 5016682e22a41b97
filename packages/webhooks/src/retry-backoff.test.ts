import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './retry-backoff';

const retry = { baseBackoffMs: 1_000, maxBackoffMs: 30_000 };

describe('retry backoff', () => {
  it('doubles from the base after each failed attempt, capped at the maximum', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelayMs(attempt, retry, () => 1));
    expect(ceilings).toStrictEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('jitters each delay between half its ceiling and the ceiling, so failing receivers are not hit in lockstep', () => {
    expect(backoffDelayMs(3, retry, () => 0)).toBe(2_000);
    expect(backoffDelayMs(3, retry, () => 0.5)).toBe(3_000);
    expect(backoffDelayMs(40, retry, () => 0)).toBe(15_000);
  });
});
