import { describe, expect, it } from 'vitest';
import { expandCollapsed, pairDiffLines, splitLines } from './pair-diff-lines';

const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');

describe('pairDiffLines', () => {
  it('pairs a modified line with its replacement', () => {
    expect(pairDiffLines('a\nb\nc\n', 'a\nB\nc\n', 3)).toEqual([
      { type: 'same', oldLine: 1, newLine: 1 },
      { type: 'changed', oldLine: 2, newLine: 2 },
      { type: 'same', oldLine: 3, newLine: 3 },
    ]);
  });

  it('lets the longer side of a change continue alone', () => {
    const rows = pairDiffLines('a\nb\n', 'a\nx\ny\nz\n', 3);
    expect(rows.filter((row) => row.type === 'changed')).toEqual([
      { type: 'changed', oldLine: 2, newLine: 2 },
      { type: 'changed', oldLine: null, newLine: 3 },
      { type: 'changed', oldLine: null, newLine: 4 },
    ]);
  });

  it('shows an added file as new lines only and a removed one as old lines only', () => {
    expect(pairDiffLines('', 'one\ntwo\n')).toEqual([
      { type: 'changed', oldLine: null, newLine: 1 },
      { type: 'changed', oldLine: null, newLine: 2 },
    ]);
    expect(pairDiffLines('one\n', '')).toEqual([{ type: 'changed', oldLine: 1, newLine: null }]);
  });

  it('folds long unchanged runs, keeping context around changes', () => {
    const oldText = `${lines(50)}old\n${lines(50, 'tail')}`;
    const newText = `${lines(50)}new\n${lines(50, 'tail')}`;
    const rows = pairDiffLines(oldText, newText, 3);
    expect(rows[0]).toEqual({ type: 'collapsed', oldStart: 1, newStart: 1, count: 47 });
    expect(rows.filter((row) => row.type === 'changed')).toEqual([{ type: 'changed', oldLine: 51, newLine: 51 }]);
    expect(rows.at(-1)).toEqual({ type: 'collapsed', oldStart: 55, newStart: 55, count: 47 });
    const expanded = expandCollapsed(rows, 0);
    expect(expanded.slice(0, 2)).toEqual([
      { type: 'same', oldLine: 1, newLine: 1 },
      { type: 'same', oldLine: 2, newLine: 2 },
    ]);
    expect(expanded).toHaveLength(rows.length - 1 + 47);
  });

  it('keeps line numbers aligned after a change of line count', () => {
    const rows = pairDiffLines('a\nb\nc\nd\n', 'a\nc\nd\n', 10);
    expect(rows).toContainEqual({ type: 'changed', oldLine: 2, newLine: null });
    expect(rows.at(-1)).toEqual({ type: 'same', oldLine: 4, newLine: 3 });
  });
});

describe('splitLines', () => {
  it('drops the empty line after a final newline and strips carriage returns', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('')).toEqual([]);
  });
});
