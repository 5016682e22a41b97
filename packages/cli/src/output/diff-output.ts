import type { DiffChange, DiffEntry, DiffSummary } from '@runtimectl/core';
import { quotePath } from './quote-path';

/** git's status letters: A added, D deleted, M modified (content or mode), T type changed. */
const STATUS_LETTERS: Record<DiffChange, string> = { added: 'A', removed: 'D', modified: 'M', mode_changed: 'M', type_changed: 'T' };

/** As `git diff --name-status`: one `<letter>\t<path>` line per changed path. */
export function nameStatusLines(entries: readonly DiffEntry[]): string[] {
  return entries.map(({ change, path }) => `${STATUS_LETTERS[change]}\t${quotePath(path)}`);
}

const sizeOf = (size: number | null) => (size === null ? '-' : `${size}`);

/**
 * As `git diff --stat`, in bytes (a manifest knows sizes, not lines): ` path | old -> new bytes`
 * per changed file or symlink, padded to the longest path, then one summary line. Directories
 * are counted in the summary only.
 */
export function statLines(entries: readonly DiffEntry[], summary: DiffSummary): string[] {
  const shown = entries.filter((entry) => (entry.new_kind ?? entry.old_kind) !== 'directory' || entry.change === 'type_changed');
  const width = Math.max(0, ...shown.map(({ path }) => quotePath(path).length));
  const lines = shown.map((entry) => {
    const sizes = entry.change === 'mode_changed' ? `mode ${octal(entry.old_mode)} -> ${octal(entry.new_mode)}` : `${sizeOf(entry.old_size)} -> ${sizeOf(entry.new_size)} bytes`;
    return ` ${quotePath(entry.path).padEnd(width)} | ${sizes}`;
  });
  return [...lines, ` ${summaryLine(summary)}`];
}

/** e.g. `3 paths changed: 1 added, 1 removed, 1 modified` (only the non-zero kinds). */
export function summaryLine(summary: DiffSummary): string {
  const total = summary.added + summary.removed + summary.modified + summary.mode_changed + summary.type_changed;
  const parts = (Object.entries(summary) as Array<[DiffChange, number]>).filter(([, count]) => count > 0).map(([change, count]) => `${count} ${change.replace('_', ' ')}`);
  return `${total} path${total === 1 ? '' : 's'} changed${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}

const octal = (mode: number | null) => (mode === null ? '-' : mode.toString(8).padStart(4, '0'));
