import { IMPLIED_DIRECTORY_MODE, type ManifestDelta, type ManifestEntry } from '@runtimectl/provider';
import type { ManifestTrees } from './build-trees';
import { MissingTreeObjectError, type TreeReader } from './diff-trees';
import { decodeTree, encodeTree, type TreeChild, type TreeObject } from './tree-object';

/**
 * A directory of the manifest being edited: a stored tree (`hash`) not read yet, or read
 * (`children`) and perhaps changed. Only changed directories are encoded again, so applying a
 * delta reads and writes the trees on the changed paths, whatever the workspace's size.
 */
interface Directory {
  mode: number;
  hash: string | null;
  children: Map<string, TreeChild | Directory> | null;
  changed: boolean;
}

const isDirectory = (node: TreeChild | Directory): node is Directory => 'changed' in node;

/**
 * Entries applied, or trees encoded, between turns of the event loop: a first checkpoint's delta
 * holds the whole workspace (a million files is a million entries), which must not keep the
 * daemon from answering for seconds.
 */
const WORK_PER_TURN = 2_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The manifest `delta` (see ManifestDelta) makes of the one whose root tree is `baseRoot` (null:
 * the empty workspace), as Merkle trees: the new root and the tree objects it adds (those of the
 * directories on changed paths, the root last; unchanged subtrees keep their stored objects).
 * Throws `TypeError` on a malformed delta (a bad path, a path under a file, a path changed twice)
 * and `MissingTreeObjectError` when a base tree it needs is not stored.
 */
export async function applyManifestDelta(baseRoot: string | null, delta: Pick<ManifestDelta, 'removed' | 'changed'>, read: TreeReader): Promise<ManifestTrees> {
  const root: Directory = baseRoot === null ? emptyDirectory(IMPLIED_DIRECTORY_MODE) : { mode: IMPLIED_DIRECTORY_MODE, hash: baseRoot, children: null, changed: false };
  const editor = new TreeEditor(read);
  let done = 0;
  for (const path of delta.removed) {
    if (++done % WORK_PER_TURN === 0) await nextTurn();
    const names = namesOf(path);
    const parent = await editor.directoryAt(root, names.slice(0, -1), path, false);
    if (parent?.children?.delete(names.at(-1)!)) editor.markChanged(root, names.slice(0, -1));
  }
  // In path order the entries below a directory are contiguous: once an entry lies outside one,
  // that directory is whole — encoded then and its children let go, so what stays in memory is
  // the path being edited, not the workspace (a first checkpoint's delta holds every file).
  const objects: TreeObject[] = [];
  const work = { entries: 0 };
  const open: OpenDirectory[] = [];
  let previous: string | undefined;
  for (const entry of [...delta.changed].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (++done % WORK_PER_TURN === 0) await nextTurn();
    if (entry.path === previous) throw new TypeError(`${JSON.stringify(entry.path)} is changed twice`);
    previous = entry.path;
    const names = namesOf(entry.path);
    const parentNames = names.slice(0, -1);
    while (open.length > 0 && !isWithin(parentNames, open.at(-1)!.names)) await close(open.pop()!, objects, work);
    const parent = (await editor.directoryAt(root, parentNames, entry.path, true)) as Directory;
    enter(open, root, parentNames);
    const children = parent.children as Map<string, TreeChild | Directory>;
    const name = names.at(-1)!;
    const existing = children.get(name);
    if (entry.kind === 'directory') {
      if (existing && isDirectory(existing)) existing.mode = entry.mode;
      else children.set(name, emptyDirectory(entry.mode));
    } else {
      children.set(name, childOf(name, entry));
    }
    editor.markChanged(root, parentNames);
  }
  while (open.length > 0) await close(open.pop()!, objects, work);
  return { root: await encodeChanged(root, objects, work), objects };
}

class TreeEditor {
  constructor(private readonly read: TreeReader) {}

  /** The directory at `names` under `root`, its children read; missing ones made (implied mode) when `create`, else null. */
  async directoryAt(root: Directory, names: string[], path: string, create: boolean): Promise<Directory | null> {
    let directory = await this.#loaded(root);
    for (const name of names) {
      let next = directory.children!.get(name);
      if (next === undefined) {
        if (!create) return null;
        next = emptyDirectory(IMPLIED_DIRECTORY_MODE);
        directory.children!.set(name, next);
      }
      if (!isDirectory(next)) {
        if (!create) return null;
        throw new TypeError(`${JSON.stringify(path)} lies under a ${next.kind}`);
      }
      directory = await this.#loaded(next);
    }
    return directory;
  }

  /** Marks `root` and every directory down to `names` (read already: directoryAt went there) as changed. */
  markChanged(root: Directory, names: string[]): void {
    let directory: Directory | undefined = root;
    for (let at = 0; directory; at++) {
      directory.changed = true;
      const next: TreeChild | Directory | undefined = at < names.length ? directory.children?.get(names[at]!) : undefined;
      directory = next && isDirectory(next) ? next : undefined;
    }
  }

  async #loaded(directory: Directory): Promise<Directory> {
    if (directory.children) return directory;
    const hash = directory.hash as string;
    const body = (await this.read([hash])).get(hash);
    if (!body) throw new MissingTreeObjectError(`tree object ${hash} is not stored`);
    directory.children = new Map(decodeTree(body).map((child) => [child.name, child.kind === 'directory' ? { mode: child.mode, hash: child.hash, children: null, changed: false } : child]));
    return directory;
  }
}

/** A directory on the path being edited (below the root), with where it hangs. */
interface OpenDirectory {
  names: string[];
  directory: Directory;
  parent: Directory;
}

/** Whether the directory at `names` is the one at `ancestor` or lies below it. */
const isWithin = (names: string[], ancestor: string[]) => ancestor.length <= names.length && ancestor.every((name, at) => names[at] === name);

/** Opens the directories from the deepest open one down to `names` (read by `directoryAt` already). */
function enter(open: OpenDirectory[], root: Directory, names: string[]): void {
  let directory = open.at(-1)?.directory ?? root;
  for (let depth = open.length; depth < names.length; depth++) {
    const next = directory.children!.get(names[depth]!) as Directory;
    open.push({ names: names.slice(0, depth + 1), directory: next, parent: directory });
    directory = next;
  }
}

/** Encodes a whole directory and puts its tree in its parent's place for it: its children go. */
async function close({ names, directory, parent }: OpenDirectory, objects: TreeObject[], work: { entries: number }): Promise<void> {
  const name = names.at(-1)!;
  parent.children!.set(name, { name, kind: 'directory', mode: directory.mode, size: 0, hash: await encodeChanged(directory, objects, work), target: null });
}

function emptyDirectory(mode: number): Directory {
  return { mode, hash: null, children: new Map(), changed: true };
}

function namesOf(path: string): string[] {
  const names = path.split('/');
  if (names.some((name) => name === '' || name === '.' || name === '..')) throw new TypeError(`${JSON.stringify(path)} is not a workspace-relative path`);
  return names;
}

function childOf(name: string, entry: ManifestEntry): TreeChild {
  return { name, kind: entry.kind, mode: entry.mode, size: entry.size, hash: entry.kind === 'file' ? entry.hash : null, target: entry.kind === 'symlink' ? entry.target : null };
}

/** Encodes `directory` when it changed (its changed subdirectories first); resolves its hash. `work` counts the entries encoded so far. */
async function encodeChanged(directory: Directory, objects: TreeObject[], work: { entries: number }): Promise<string> {
  if (!directory.changed) return directory.hash as string;
  const children: TreeChild[] = [];
  for (const [name, node] of directory.children!) {
    children.push(isDirectory(node) ? { name, kind: 'directory', mode: node.mode, size: 0, hash: await encodeChanged(node, objects, work), target: null } : node);
  }
  work.entries += children.length;
  if (work.entries >= WORK_PER_TURN) {
    work.entries = 0;
    await nextTurn();
  }
  const object = encodeTree(children);
  objects.push(object);
  return object.hash;
}
