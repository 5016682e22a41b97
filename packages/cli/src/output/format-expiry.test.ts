import { describe, expect, it } from 'vitest';
import { formatExpiry } from './format-expiry';

describe('formatExpiry', () => {
  it('a TTL ahead reads as when it expires', () => {
    expect(formatExpiry(1_000 + 7_200_000, 1_000)).toBe('in 2 hours');
  });

  it('a TTL that has passed says the runtime expired, never "expires … ago"', () => {
    const text = formatExpiry(1_000, 4_000);
    expect(text).toBe('expired 3 seconds ago: nothing runs on it any more; the next policy pass closes it');
    expect(formatExpiry(1_000, 1_000)).toMatch(/^expired now/);
  });
});
