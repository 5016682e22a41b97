// Medians and spreads: every figure in the report is the median of repeated rounds, shown with
// the smallest and largest round so a reader sees how much the machine moved under it.

/** The median of finite numbers; NaN when there are none. */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `{ median, min, max, rounds }` of the finite values. */
export function spreadOf(values) {
  const finite = values.filter(Number.isFinite);
  return {
    median: median(finite),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    rounds: finite.length,
  };
}

/** The value at quantile `q` (0..1) of already sorted numbers. */
export function quantileOfSorted(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
