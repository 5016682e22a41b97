// One row of the report: a measured figure, its spread, the reference measured in the same run,
// the ratio between them, and whether the target is met. A row without a target is
// "reported"; a row whose target is missed is a miss and is printed as one.
import { spreadOf } from '../stats.mjs';

/**
 * @param {object} row
 * @param {string} row.id             stable id (latest.json, known causes of misses)
 * @param {string} row.measurement    what was measured, as the issue names it
 * @param {number[]} row.rounds       the figure in each round (the median is reported)
 * @param {string} row.unit           'ms', 'req/s', 'B', 'calls', '%', '×'
 * @param {{ label: string, rounds?: number[], value?: number|string, unit?: string }} [row.reference]
 * @param {{ label: string, rounds: number[], unit: '×'|'%' }} [row.ratio]  per-round ratios to the reference
 * @param {{ text: string, met: (figure: { value: number, ratio?: number }) => boolean }} [row.target]
 * @param {string} [row.detail]       one more fact shown with the figure (e.g. the p99 next to a p50)
 */
export function figureRow({ id, measurement, rounds, unit, reference, ratio, target, detail }) {
  const value = spreadOf(rounds);
  const ratioSpread = ratio ? spreadOf(ratio.rounds) : undefined;
  const met = target ? target.met({ value: value.median, ratio: ratioSpread?.median }) : undefined;
  return {
    id,
    measurement,
    unit,
    value,
    ...(detail ? { detail } : {}),
    ...(reference
      ? {
          reference: {
            label: reference.label,
            unit: reference.unit ?? unit,
            ...(reference.rounds ? spreadOf(reference.rounds) : { median: reference.value }),
          },
        }
      : {}),
    ...(ratio ? { ratio: { label: ratio.label, unit: ratio.unit, ...ratioSpread } } : {}),
    target: target?.text ?? null,
    verdict: target === undefined ? 'reported' : met ? 'met' : 'miss',
  };
}
