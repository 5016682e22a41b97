import type { TreeEntry } from '../api/api-types';

/** Directories first, then by name: how file browsers list a directory. */
export function sortDirectoryEntries(entries: TreeEntry[]): TreeEntry[] {
  return entries.slice().sort((left, right) => {
    const leftIsDirectory = left.kind === 'directory';
    if (leftIsDirectory !== (right.kind === 'directory')) return leftIsDirectory ? -1 : 1;
    return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
  });
}

export function joinPath(directory: string, name: string): string {
  return directory ? `${directory.replace(/\/+$/, '')}/${name}` : name;
}

/** The breadcrumb of a relative path: each ancestor's name and its path, root first (path ''). */
export function pathCrumbs(path: string): Array<{ name: string; path: string }> {
  const crumbs = [{ name: 'workspace', path: '' }];
  let current = '';
  for (const segment of path.split('/').filter((part) => part !== '')) {
    current = joinPath(current, segment);
    crumbs.push({ name: segment, path: current });
  }
  return crumbs;
}
