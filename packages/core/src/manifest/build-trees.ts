import { IMPLIED_DIRECTORY_MODE, type ManifestEntry } from '@runtimectl/provider';
import { encodeTree, type TreeChild, type TreeObject } from './tree-object';

/** A manifest as Merkle trees: the root tree's hash and every tree object, the root last. */
export interface ManifestTrees {
  root: string;
  objects: TreeObject[];
}

interface Directory {
  mode: number;
  /** Whether an entry listed it (else it is implied by a path under it). */
  listed: boolean;
  children: Map<string, TreeChild | Directory>;
}

const isDirectory = (node: TreeChild | Directory): node is Directory => 'children' in node;

/**
 * Builds the tree objects of a flat manifest (any order): one per directory, the root (the
 * workspace itself) included. A directory the entries imply but do not list gets mode 0755.
 * Throws `TypeError` on a path listed twice, a path under a file or symlink, or a malformed path.
 */
export function buildTrees(entries: readonly ManifestEntry[]): ManifestTrees {
  const root: Directory = { mode: IMPLIED_DIRECTORY_MODE, listed: true, children: new Map() };
  for (const entry of entries) {
    const names = entry.path.split('/');
    if (names.some((name) => name === '' || name === '.' || name === '..')) throw new TypeError(`${JSON.stringify(entry.path)} is not a workspace-relative path`);
    const parent = directoryAt(root, names.slice(0, -1), entry.path);
    const name = names.at(-1)!;
    const existing = parent.children.get(name);
    if (entry.kind === 'directory') {
      if (existing && (!isDirectory(existing) || existing.listed)) throw new TypeError(`${JSON.stringify(entry.path)} is listed twice`);
      if (existing) Object.assign(existing, { mode: entry.mode, listed: true });
      else parent.children.set(name, { mode: entry.mode, listed: true, children: new Map() });
    } else {
      if (existing) throw new TypeError(`${JSON.stringify(entry.path)} is listed twice`);
      parent.children.set(name, { name, kind: entry.kind, mode: entry.mode, size: entry.size, hash: entry.kind === 'file' ? entry.hash : null, target: entry.kind === 'symlink' ? entry.target : null });
    }
  }
  const objects: TreeObject[] = [];
  const rootHash = encodeDirectory(root, objects);
  return { root: rootHash, objects };
}

/** The directory node at `names` under `root`, creating implied ones. */
function directoryAt(root: Directory, names: string[], path: string): Directory {
  let directory = root;
  for (const name of names) {
    let next = directory.children.get(name);
    if (next === undefined) {
      next = { mode: IMPLIED_DIRECTORY_MODE, listed: false, children: new Map() };
      directory.children.set(name, next);
    }
    if (!isDirectory(next)) throw new TypeError(`${JSON.stringify(path)} lies under a ${next.kind}`);
    directory = next;
  }
  return directory;
}

/** Encodes `directory` after its subdirectories (children first), appending each object; resolves its hash. */
function encodeDirectory(directory: Directory, objects: TreeObject[]): string {
  const children: TreeChild[] = [];
  for (const [name, node] of directory.children) {
    children.push(isDirectory(node) ? { name, kind: 'directory', mode: node.mode, size: 0, hash: encodeDirectory(node, objects), target: null } : node);
  }
  const object = encodeTree(children);
  objects.push(object);
  return object.hash;
}
