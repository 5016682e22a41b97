// Number formatting for the markdown report: enough digits to compare, no more.

/** A number with a unit, rounded to what the unit deserves. */
export function formatValue(value, unit) {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return 'n/a';
  switch (unit) {
    case 'ms':
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;
    case 'µs':
      return `${value.toFixed(0)} µs`;
    case 'req/s':
      return `${Math.round(value)} req/s`;
    case 'B':
      return `${Math.round(value).toLocaleString('en-US')} B`;
    case 'MiB/s':
      return `${value.toFixed(0)} MiB/s`;
    case '%':
      return `${value.toFixed(1)}%`;
    case '×':
      return `${value.toFixed(2)}×`;
    case 'calls':
      return `${value} call${value === 1 ? '' : 's'}`;
    default:
      return `${Number.isInteger(value) ? value : value.toFixed(2)}${unit ? ` ${unit}` : ''}`;
  }
}

/** "1.23 ms (1.10–1.40, 3 rounds)": the median and the smallest and largest round. */
export function formatSpread(spread, unit) {
  if (spread.median === undefined) return 'n/a';
  if (spread.rounds === undefined || spread.rounds <= 1 || !Number.isFinite(spread.min)) return formatValue(spread.median, unit);
  const bare = (value) => formatValue(value, unit).replace(/ (ms|µs|req\/s|B|MiB\/s|calls?)$/, '');
  return `${formatValue(spread.median, unit)} (${bare(spread.min)}–${bare(spread.max)}, ${spread.rounds} rounds)`;
}
