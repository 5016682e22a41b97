import type { RuntimeStatus } from '@runtimectl/core';
import { formatRelativeTime } from './relative-time';

/** The `show` row for a runtime's TTL: its label and its value. */
export interface ExpiryRow {
  label: 'expires' | 'expired';
  text: string;
}

/**
 * A TTL as `show` prints it: `expires in 2 hours` before it, `expired 3 seconds ago` after it.
 * A runtime past its TTL that is not closed yet gets what that means: the daemon refuses every
 * operation on it from that instant (`runtime_expired`), and its policy pass closes it.
 */
export function formatExpiry(expiresAtMs: number, status: RuntimeStatus, nowMs: number): ExpiryRow {
  const when = formatRelativeTime(expiresAtMs, nowMs);
  if (expiresAtMs > nowMs) return { label: 'expires', text: when };
  if (status === 'closed') return { label: 'expired', text: when };
  return { label: 'expired', text: `${when} (operations refused; closed at the next policy pass)` };
}
