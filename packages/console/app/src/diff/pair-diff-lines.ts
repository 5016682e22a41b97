import { diffLines } from 'diff';

/** One row of the side-by-side view; line numbers are 1-based, null where that side has no line. */
export type DiffRow =
  | { type: 'same'; oldLine: number; newLine: number }
  | { type: 'changed'; oldLine: number | null; newLine: number | null }
  | { type: 'collapsed'; oldStart: number; newStart: number; count: number };

/** A diff that takes longer is shown as all old lines replaced by all new ones, rather than freezing the tab. */
const DIFF_TIMEOUT_MS = 2_000;

/** Unchanged runs longer than this are folded, keeping CONTEXT_LINES on each side. */
export const CONTEXT_LINES = 3;

/** Lines as the diff counts them: a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Pairs a line diff into side-by-side rows: a removed run next to the added run that follows it
 * (line by line, the longer side continuing alone), unchanged runs folded beyond the context.
 */
export function pairDiffLines(oldText: string, newText: string, contextLines = CONTEXT_LINES): DiffRow[] {
  const changes = diffLines(oldText, newText, { timeout: DIFF_TIMEOUT_MS }) ?? [
    { value: oldText, count: splitLines(oldText).length, added: false, removed: true },
    { value: newText, count: splitLines(newText).length, added: true, removed: false },
  ];
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let index = 0; index < changes.length; index += 1) {
    const change = changes[index]!;
    const count = change.count ?? splitLines(change.value).length;
    if (change.removed) {
      const next = changes[index + 1];
      const added = next?.added ? (next.count ?? splitLines(next.value).length) : 0;
      if (next?.added) index += 1;
      for (let offset = 0; offset < Math.max(count, added); offset += 1) {
        rows.push({ type: 'changed', oldLine: offset < count ? oldLine + offset : null, newLine: offset < added ? newLine + offset : null });
      }
      oldLine += count;
      newLine += added;
    } else if (change.added) {
      for (let offset = 0; offset < count; offset += 1) rows.push({ type: 'changed', oldLine: null, newLine: newLine + offset });
      newLine += count;
    } else {
      const isFirst = index === 0;
      const isLast = index === changes.length - 1;
      const keepBefore = isFirst ? 0 : contextLines;
      const keepAfter = isLast ? 0 : contextLines;
      if (count > keepBefore + keepAfter + 1) {
        for (let offset = 0; offset < keepBefore; offset += 1) rows.push({ type: 'same', oldLine: oldLine + offset, newLine: newLine + offset });
        const hidden = count - keepBefore - keepAfter;
        rows.push({ type: 'collapsed', oldStart: oldLine + keepBefore, newStart: newLine + keepBefore, count: hidden });
        for (let offset = count - keepAfter; offset < count; offset += 1) rows.push({ type: 'same', oldLine: oldLine + offset, newLine: newLine + offset });
      } else {
        for (let offset = 0; offset < count; offset += 1) rows.push({ type: 'same', oldLine: oldLine + offset, newLine: newLine + offset });
      }
      oldLine += count;
      newLine += count;
    }
  }
  return rows;
}

/** Unfolds one collapsed row into the unchanged rows it stood for. */
export function expandCollapsed(rows: DiffRow[], rowIndex: number): DiffRow[] {
  const row = rows[rowIndex];
  if (!row || row.type !== 'collapsed') return rows;
  const expanded: DiffRow[] = Array.from({ length: row.count }, (_, offset) => ({ type: 'same', oldLine: row.oldStart + offset, newLine: row.newStart + offset }));
  return [...rows.slice(0, rowIndex), ...expanded, ...rows.slice(rowIndex + 1)];
}
