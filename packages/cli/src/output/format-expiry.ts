import { formatRelativeTime } from './relative-time';

/**
 * A runtime's TTL as `show` prints it: "in 2 hours" ahead; once passed, that it expired and what
 * that means — the daemon refuses every operation on it (`runtime_expired`) and its policy pass
 * closes it — never "expires … ago".
 */
export function formatExpiry(expiresAtMs: number, nowMs: number): string {
  if (expiresAtMs > nowMs) return formatRelativeTime(expiresAtMs, nowMs);
  return `expired ${formatRelativeTime(expiresAtMs, nowMs)}: nothing runs on it any more; the next policy pass closes it`;
}
