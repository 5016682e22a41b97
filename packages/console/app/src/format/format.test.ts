import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';
import { formatAge } from './format-time';
import { shortId } from './short-id';

describe('formatting', () => {
  it('formats sizes with binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
    expect(formatBytes(null)).toBe('—');
  });

  it('formats ages coarsely', () => {
    expect(formatAge(1_000, 6_000)).toBe('5 s ago');
    expect(formatAge(0, 180_000)).toBe('3 min ago');
  });

  it('shortens checkpoint ids after their prefix', () => {
    expect(shortId('rtcp_0123456789abcdef0123456789abcdef')).toBe('rtcp_01234567');
    expect(shortId('short')).toBe('short');
  });
});
