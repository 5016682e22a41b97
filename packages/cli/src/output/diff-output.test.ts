import { describe, expect, it } from 'vitest';
import type { DiffEntry } from '@runtimectl/core';
import { nameStatusLines, statLines, summaryLine } from './diff-output';

const entry = (path: string, change: DiffEntry['change'], overrides: Partial<DiffEntry> = {}): DiffEntry => ({
  path,
  change,
  old_kind: change === 'added' ? null : 'file',
  new_kind: change === 'removed' ? null : 'file',
  old_size: change === 'added' ? null : 3,
  new_size: change === 'removed' ? null : 5,
  old_mode: change === 'added' ? null : 0o644,
  new_mode: change === 'removed' ? null : 0o644,
  old_target: null,
  new_target: null,
  ...overrides,
});

describe('diff output', () => {
  const entries = [
    entry('a.txt', 'added'),
    entry('dir', 'added', { new_kind: 'directory', new_size: 0 }),
    entry('gone.txt', 'removed'),
    entry('run.sh', 'mode_changed', { new_mode: 0o755 }),
    entry('src/x', 'type_changed', { new_kind: 'directory' }),
    entry('z.md', 'modified'),
  ];
  const summary = { added: 2, removed: 1, modified: 1, mode_changed: 1, type_changed: 1 };

  it('--name-status prints git letters: A, D, M (content or mode), T', () => {
    expect(nameStatusLines(entries)).toEqual(['A\ta.txt', 'A\tdir', 'D\tgone.txt', 'M\trun.sh', 'T\tsrc/x', 'M\tz.md']);
  });

  it('--stat prints one padded line per changed file with its sizes (or modes), then the summary', () => {
    expect(statLines(entries, summary)).toEqual([
      ' a.txt    | - -> 5 bytes',
      ' gone.txt | 3 -> - bytes',
      ' run.sh   | mode 0644 -> 0755',
      ' src/x    | 3 -> 5 bytes',
      ' z.md     | 3 -> 5 bytes',
      ' 6 paths changed: 2 added, 1 removed, 1 modified, 1 mode changed, 1 type changed',
    ]);
  });

  it('summarises an empty diff', () => {
    expect(summaryLine({ added: 0, removed: 0, modified: 0, mode_changed: 0, type_changed: 0 })).toBe('0 paths changed');
  });
});
