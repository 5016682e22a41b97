import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

describe('formatRelativeTime', () => {
  it('says "now" for the same instant and for less than a second', () => {
    expect(formatRelativeTime(NOW, NOW)).toBe('now');
    expect(formatRelativeTime(NOW - 400, NOW)).toBe('now');
  });

  it('uses the largest whole unit, truncated like git log', () => {
    expect(formatRelativeTime(NOW - 5_000, NOW)).toBe('5 seconds ago');
    expect(formatRelativeTime(NOW - 3 * 60_000, NOW)).toBe('3 minutes ago');
    expect(formatRelativeTime(NOW - 119_000, NOW)).toBe('1 minute ago');
    expect(formatRelativeTime(NOW - 5 * 3_600_000, NOW)).toBe('5 hours ago');
    expect(formatRelativeTime(NOW - 3 * 86_400_000, NOW)).toBe('3 days ago');
    expect(formatRelativeTime(NOW - 86_400_000, NOW)).toBe('yesterday');
    expect(formatRelativeTime(NOW - 15 * 86_400_000, NOW)).toBe('2 weeks ago');
    expect(formatRelativeTime(NOW - 400 * 86_400_000, NOW)).toBe('last year');
  });

  it('speaks of the future for clocks that run ahead of the daemon', () => {
    expect(formatRelativeTime(NOW + 2 * 60_000, NOW)).toBe('in 2 minutes');
  });
});
