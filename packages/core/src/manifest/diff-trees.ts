import { decodeTree, type TreeChild } from './tree-object';

/** Reads stored tree objects by hash (a store's `getTreeObjects`, or one over trees not stored yet). */
export type TreeReader = (hashes: readonly string[]) => Promise<Map<string, Uint8Array>>;

export type TreeChangeKind = 'added' | 'removed' | 'modified' | 'mode_changed' | 'type_changed';

/** One changed path between two trees; `before` is null for an added path, `after` for a removed one. */
export interface TreeChange {
  path: string;
  change: TreeChangeKind;
  before: TreeChild | null;
  after: TreeChild | null;
}

/** A tree object a root names is not in the store. */
export class MissingTreeObjectError extends Error {}

interface Pending {
  prefix: string;
  before: string | null;
  after: string | null;
}

/**
 * The changes from the tree `fromRoot` to the tree `toRoot`, sorted by path. Walks both trees
 * level by level, one read of tree objects per level, and never descends into a pair of equal
 * subtree hashes: a diff reads the directories on the paths that changed, not the workspace.
 * Below an added (removed) directory every entry is added (removed). A path whose kind changed
 * is `type_changed`; a directory's mode change is `mode_changed` (its contents are compared on
 * their own); a file or symlink whose content (target) changed is `modified`, with the same
 * content but another mode `mode_changed`.
 */
export async function diffTrees(fromRoot: string, toRoot: string, read: TreeReader): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  const decoded = new Map<string, TreeChild[]>();
  let level: Pending[] = fromRoot === toRoot ? [] : [{ prefix: '', before: fromRoot, after: toRoot }];
  while (level.length > 0) {
    const wanted = [...new Set(level.flatMap(({ before, after }) => [before, after]).filter((hash): hash is string => hash !== null && !decoded.has(hash)))];
    if (wanted.length > 0) {
      const bodies = await read(wanted);
      for (const hash of wanted) {
        const body = bodies.get(hash);
        if (!body) throw new MissingTreeObjectError(`tree object ${hash} is missing from the store`);
        decoded.set(hash, decodeTree(body));
      }
    }
    const next: Pending[] = [];
    for (const pair of level) compareLevel(pair, decoded, changes, next);
    level = next;
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function compareLevel({ prefix, before, after }: Pending, decoded: Map<string, TreeChild[]>, changes: TreeChange[], next: Pending[]): void {
  const old = new Map((before === null ? [] : decoded.get(before)!).map((child) => [child.name, child]));
  const now = new Map((after === null ? [] : decoded.get(after)!).map((child) => [child.name, child]));
  const pathOf = (name: string) => (prefix === '' ? name : `${prefix}/${name}`);
  for (const [name, child] of old) {
    if (now.has(name)) continue;
    changes.push({ path: pathOf(name), change: 'removed', before: child, after: null });
    if (child.kind === 'directory') next.push({ prefix: pathOf(name), before: child.hash, after: null });
  }
  for (const [name, child] of now) {
    const previous = old.get(name);
    const path = pathOf(name);
    if (!previous) {
      changes.push({ path, change: 'added', before: null, after: child });
      if (child.kind === 'directory') next.push({ prefix: path, before: null, after: child.hash });
      continue;
    }
    if (previous.kind !== child.kind) {
      changes.push({ path, change: 'type_changed', before: previous, after: child });
      if (previous.kind === 'directory') next.push({ prefix: path, before: previous.hash, after: null });
      if (child.kind === 'directory') next.push({ prefix: path, before: null, after: child.hash });
      continue;
    }
    const sameContent = child.kind === 'symlink' ? previous.target === child.target : previous.hash === child.hash;
    if (child.kind === 'directory') {
      if (previous.mode !== child.mode) changes.push({ path, change: 'mode_changed', before: previous, after: child });
      if (!sameContent) next.push({ prefix: path, before: previous.hash, after: child.hash });
    } else if (!sameContent) {
      changes.push({ path, change: 'modified', before: previous, after: child });
    } else if (previous.mode !== child.mode) {
      changes.push({ path, change: 'mode_changed', before: previous, after: child });
    }
  }
}
