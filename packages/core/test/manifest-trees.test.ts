import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTrees, decodeTree, encodeTree, MemoryRuntimeStore, type ManifestEntry } from '@runtimectl/core';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (path: string, content: string, mode = 0o644): ManifestEntry => ({ path, kind: 'file', mode, size: Buffer.byteLength(content), target: null, hash: sha(content) });
const directory = (path: string, mode = 0o755): ManifestEntry => ({ path, kind: 'directory', mode, size: 0, target: null, hash: null });
const symlink = (path: string, target: string): ManifestEntry => ({ path, kind: 'symlink', mode: 0o777, size: Buffer.byteLength(target), target, hash: null });

/** 10 top directories × 10 subdirectories × 100 files: a 10,000-file workspace. */
function workspace(changed?: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (let a = 0; a < 10; a++) {
    entries.push(directory(`pkg-${a}`));
    for (let b = 0; b < 10; b++) {
      entries.push(directory(`pkg-${a}/module-${b}`));
      for (let c = 0; c < 100; c++) {
        const path = `pkg-${a}/module-${b}/source-file-${c}.ts`;
        entries.push(file(path, path === changed ? 'changed' : `content of ${path}`));
      }
    }
  }
  return entries;
}

describe('manifest trees (Merkle trees of directories, as git stores them)', () => {
  it('the root hash depends on the tree, not on the order the entries are listed in', () => {
    const entries = [directory('src'), file('src/a.ts', 'a'), file('README.md', 'hi'), symlink('link', 'src/a.ts')];
    expect(buildTrees(entries).root).toBe(buildTrees([...entries].reverse()).root);
  });

  it('any change of content, mode, symlink target or name changes the root hash', () => {
    const base = buildTrees([file('a', 'x'), symlink('l', 'a')]).root;
    expect(buildTrees([file('a', 'y'), symlink('l', 'a')]).root).not.toBe(base);
    expect(buildTrees([file('a', 'x', 0o755), symlink('l', 'a')]).root).not.toBe(base);
    expect(buildTrees([file('a', 'x'), symlink('l', 'b')]).root).not.toBe(base);
    expect(buildTrees([file('b', 'x'), symlink('l', 'a')]).root).not.toBe(base);
  });

  it('an unlisted parent directory is implied with mode 0755, the same tree as listing it', () => {
    expect(buildTrees([file('a/b/c', 'x')]).root).toBe(buildTrees([directory('a'), directory('a/b'), file('a/b/c', 'x')]).root);
  });

  it('refuses a path listed twice and a path under a file', () => {
    expect(() => buildTrees([file('a', 'x'), file('a', 'y')])).toThrow(/listed twice/);
    expect(() => buildTrees([file('a', 'x'), file('a/b', 'y')])).toThrow(/under a file/);
    expect(() => buildTrees([file('../a', 'x')])).toThrow(/workspace-relative/);
  });

  it('a tree object decodes back to its children, names with spaces, newlines and non-ASCII included', () => {
    const children = [
      { name: 'a file\nwith a newline', kind: 'file' as const, mode: 0o600, size: 3, hash: sha('abc'), target: null },
      { name: 'dir é', kind: 'directory' as const, mode: 0o755, size: 0, hash: sha('tree'), target: null },
      { name: 'link', kind: 'symlink' as const, mode: 0o777, size: 9, hash: null, target: '../target' },
    ];
    expect(decodeTree(encodeTree(children).body)).toEqual(children);
  });

  it('names and targets are bytes: a non-UTF-8 name (escaped as U+DC80–U+DCFF) and the name it would decode to are two children, each kept exact', () => {
    const escaped = [file('p\udcff', '1'), file('p\ufffd', '2'), symlink('l', 'to-\udcfe')];
    const trees = buildTrees(escaped);
    const root = trees.objects.find((object) => object.hash === trees.root)!.body;
    const children = decodeTree(root);
    expect(children.map((child) => child.name).sort()).toEqual(['l', 'p\udcff', 'p\ufffd']);
    expect(children.find((child) => child.name === 'l')!.target).toBe('to-\udcfe');
    expect(Buffer.from(root).includes(Buffer.from([0x70, 0xff, 0]))).toBe(true);
    expect(buildTrees([file('p\udcff', '1')]).root).not.toBe(buildTrees([file('p\ufffd', '1')]).root);
  });

  it('a checkpoint that changed one file of a 10,000-file workspace adds at most 16 KiB of tree objects', async () => {
    const store = new MemoryRuntimeStore();
    const before = buildTrees(workspace());
    await store.commit({ treeObjects: before.objects });
    const after = buildTrees(workspace('pkg-3/module-7/source-file-42.ts'));
    expect(after.root).not.toBe(before.root);
    const stored = await store.getTreeObjects(after.objects.map(({ hash }) => hash));
    const added = after.objects.filter(({ hash }) => !stored.has(hash));
    const addedBytes = added.reduce((total, { body }) => total + body.byteLength, 0);
    expect(added.map(({ hash }) => hash)).toHaveLength(3); // the changed file's directory, its parent, the root
    expect(addedBytes).toBeLessThanOrEqual(16 * 1024);
  });
});
