const UNITS: Array<[string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/** A duration in its largest unit that divides it exactly, as the CLI's duration options take it: `15m`, `2h`, `1500ms`. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of UNITS) if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
