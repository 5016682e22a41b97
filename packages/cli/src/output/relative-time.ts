const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Largest unit first; a unit is used once the distance reaches `fromMs`. */
const UNITS: Array<{ unit: Intl.RelativeTimeFormatUnit; ms: number; fromMs: number }> = [
  { unit: 'year', ms: 365 * DAY_MS, fromMs: 365 * DAY_MS },
  { unit: 'month', ms: 30 * DAY_MS, fromMs: 30 * DAY_MS },
  { unit: 'week', ms: 7 * DAY_MS, fromMs: 7 * DAY_MS },
  { unit: 'day', ms: DAY_MS, fromMs: DAY_MS },
  { unit: 'hour', ms: HOUR_MS, fromMs: HOUR_MS },
  { unit: 'minute', ms: MINUTE_MS, fromMs: MINUTE_MS },
  { unit: 'second', ms: SECOND_MS, fromMs: 0 },
];

const formatters = new Map<string, Intl.RelativeTimeFormat>();

/**
 * "3 minutes ago", "in 2 hours", "now": the distance from `nowMs` in its largest whole unit
 * (truncated, as `git log` does: 119 s is "1 minute ago").
 */
export function formatRelativeTime(thenMs: number, nowMs: number, locale = 'en'): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    formatters.set(locale, formatter);
  }
  const deltaMs = thenMs - nowMs;
  const distanceMs = Math.abs(deltaMs);
  const { unit, ms } = UNITS.find((candidate) => distanceMs >= candidate.fromMs)!;
  const amount = Math.trunc(distanceMs / ms) * Math.sign(deltaMs);
  // "0 seconds ago" reads oddly; Intl's numeric:'auto' says "now". Avoid "-0".
  return formatter.format(amount === 0 ? 0 : amount, unit);
}
