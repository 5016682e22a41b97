/** How long to wait before retrying a delivery. */
export interface BackoffSettings {
  /** The wait after the first failed attempt (before jitter). */
  baseBackoffMs: number;
  /** No wait is longer. */
  maxBackoffMs: number;
}

/**
 * The wait after failed attempt `attempt` (1-based): the base doubled per attempt, capped, then
 * jittered to between half of that and all of it ("equal jitter"), so receivers that failed
 * together are not retried in lockstep. `random` is in [0, 1), injectable for tests.
 */
export function backoffDelayMs(attempt: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxBackoffMs, settings.baseBackoffMs * 2 ** Math.min(attempt - 1, 52));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
