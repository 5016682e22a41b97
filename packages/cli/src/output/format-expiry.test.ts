import { describe, expect, it } from 'vitest';
import { formatExpiry } from './format-expiry';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

describe('formatExpiry', () => {
  it('a TTL still ahead reads as when it expires', () => {
    expect(formatExpiry(NOW + 2 * 3_600_000, 'idle', NOW)).toEqual({ label: 'expires', text: 'in 2 hours' });
  });

  it('a passed TTL on a runtime not closed yet says operations are refused until the policy pass closes it', () => {
    expect(formatExpiry(NOW - 3_000, 'idle', NOW)).toEqual({ label: 'expired', text: '3 seconds ago (operations refused; closed at the next policy pass)' });
    expect(formatExpiry(NOW, 'paused', NOW).label).toBe('expired');
  });

  it('a passed TTL on a closed runtime only says when it expired', () => {
    expect(formatExpiry(NOW - 5 * 60_000, 'closed', NOW)).toEqual({ label: 'expired', text: '5 minutes ago' });
  });
});
