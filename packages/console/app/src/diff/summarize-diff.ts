import type { DiffSummary } from '../api/api-types';

/** "2 added, 1 modified, 0 removed, 0 mode changed, 0 type changed". */
export function summarizeDiff(summary: DiffSummary): string {
  return [
    `${summary.added} added`,
    `${summary.modified} modified`,
    `${summary.removed} removed`,
    `${summary.mode_changed} mode changed`,
    `${summary.type_changed} type changed`,
  ].join(', ');
}
