import { TooManyEventStreamsError } from './api-errors';

/** How long a follower waits before it reopens a stream that broke. */
export const RECONNECT_DELAY_MS = 1_000;

/** The longest wait between attempts while the daemon keeps refusing streams. */
export const MAX_REFUSED_DELAY_MS = 30_000;

/**
 * How long a follower waits before its next attempt. A broken stream is reopened after
 * RECONNECT_DELAY_MS. A stream refused for too many open streams waits at least the daemon's
 * `Retry-After`, doubling with each refusal in a row up to MAX_REFUSED_DELAY_MS, plus up to a
 * quarter more so refused followers do not all come back at the same instant.
 */
export function reconnectDelayMs(error: unknown, refusalsInARow: number, random: () => number = Math.random): number {
  if (!(error instanceof TooManyEventStreamsError)) return RECONNECT_DELAY_MS;
  const backoffMs = Math.min(MAX_REFUSED_DELAY_MS, RECONNECT_DELAY_MS * 2 ** Math.max(0, refusalsInARow - 1));
  const waitMs = Math.max(error.retryAfterMs ?? 0, backoffMs);
  return Math.round(waitMs * (1 + random() / 4));
}
