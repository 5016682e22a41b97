import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../api/api-types';
import { joinPath, pathCrumbs, sortDirectoryEntries } from './directory-entries';

const entry = (name: string, kind: TreeEntry['kind']): TreeEntry => ({ name, kind, mode: 0o644, size: 1, target: null });

describe('directory entries', () => {
  it('lists directories first, each group by name', () => {
    const sorted = sortDirectoryEntries([entry('b.txt', 'file'), entry('src', 'directory'), entry('a-link', 'symlink'), entry('docs', 'directory')]);
    expect(sorted.map((item) => item.name)).toEqual(['docs', 'src', 'a-link', 'b.txt']);
  });

  it('joins and splits relative paths', () => {
    expect(joinPath('', 'src')).toBe('src');
    expect(joinPath('src/', 'lib')).toBe('src/lib');
    expect(pathCrumbs('src/lib')).toEqual([
      { name: 'workspace', path: '' },
      { name: 'src', path: 'src' },
      { name: 'lib', path: 'src/lib' },
    ]);
  });
});
