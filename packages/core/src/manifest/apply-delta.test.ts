import { createHash } from 'node:crypto';
import type { ManifestEntry } from '@runtimectl/provider';
import { describe, expect, it } from 'vitest';
import { applyManifestDelta } from './apply-delta';
import { buildTrees } from './build-trees';
import { MissingTreeObjectError } from './diff-trees';
import type { TreeObject } from './tree-object';

const file = (path: string, content = path, mode = 0o644): ManifestEntry => ({ path, kind: 'file', mode, size: content.length, target: null, hash: hashOf(content) });
const dir = (path: string, mode = 0o755): ManifestEntry => ({ path, kind: 'directory', mode, size: 0, target: null, hash: null });
const link = (path: string, target: string): ManifestEntry => ({ path, kind: 'symlink', mode: 0o777, size: target.length, target, hash: null });
const hashOf = (content: string) => createHash('sha256').update(content).digest('hex');

function readerOf(...objectLists: TreeObject[][]) {
  const bodies = new Map(objectLists.flat().map((object) => [object.hash, object.body]));
  const reads: string[] = [];
  const read = async (hashes: readonly string[]) => {
    reads.push(...hashes);
    return new Map(hashes.filter((hash) => bodies.has(hash)).map((hash) => [hash, bodies.get(hash)!]));
  };
  return { read, reads };
}

/** A random workspace: directories listed, files and links, up to three levels. */
function randomWorkspace(random: () => number): Map<string, ManifestEntry> {
  const entries = new Map<string, ManifestEntry>();
  const names = ['a', 'a-1', 'a.x', 'b', 'c', 'é', 'p\udcff']; // 'a-1' and 'a.x' sort between 'a' and 'a/…'
  const grow = (prefix: string, depth: number) => {
    for (const name of names) {
      if (random() < 0.45) continue;
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const pick = random();
      if (depth < 3 && pick < 0.35) {
        entries.set(path, dir(path, random() < 0.2 ? 0o700 : 0o755));
        grow(path, depth + 1);
      } else if (pick < 0.9) entries.set(path, file(path, `${path}:${Math.floor(random() * 3)}`, random() < 0.2 ? 0o755 : 0o644));
      else entries.set(path, link(path, `../${name}`));
    }
  };
  grow('', 0);
  return entries;
}

/** `base` changed at random: files rewritten, paths removed, files turned into directories and back. */
function randomChange(base: Map<string, ManifestEntry>, random: () => number): Map<string, ManifestEntry> {
  const next = new Map(base);
  const removeUnder = (path: string) => {
    for (const key of [...next.keys()]) if (key === path || key.startsWith(`${path}/`)) next.delete(key);
  };
  for (const [path, entry] of base) {
    if (!next.has(path)) continue;
    const pick = random();
    if (pick < 0.15) removeUnder(path);
    else if (pick < 0.3 && entry.kind === 'file') next.set(path, file(path, `${path}:changed:${Math.floor(random() * 5)}`, entry.mode));
    else if (pick < 0.35 && entry.kind === 'directory') next.set(path, dir(path, entry.mode === 0o755 ? 0o750 : 0o755));
    else if (pick < 0.4) {
      removeUnder(path);
      if (entry.kind === 'directory') next.set(path, file(path, 'was a directory'));
      else {
        next.set(path, dir(path));
        next.set(`${path}/new`, file(`${path}/new`, 'new in a new directory'));
      }
    }
  }
  if (random() < 0.7) {
    next.set('fresh', dir('fresh'));
    next.set('fresh/deeper', dir('fresh/deeper'));
    next.set('fresh/deeper/file', file('fresh/deeper/file'));
  }
  return next;
}

/**
 * A valid delta from `base` to `next`: each path gone is removed; each entry new or different is
 * changed; and, at random, a directory that stays is removed and given again whole (as an
 * overlayfs opaque directory is).
 */
function deltaBetween(base: Map<string, ManifestEntry>, next: Map<string, ManifestEntry>, random: () => number) {
  const removed = [...base.keys()].filter((path) => !next.has(path));
  const changed = [...next.values()].filter((entry) => JSON.stringify(entry) !== JSON.stringify(base.get(entry.path)));
  for (const [path, entry] of next) {
    if (entry.kind !== 'directory' || base.get(path)?.kind !== 'directory' || random() > 0.2) continue;
    removed.push(path);
    for (const [under, inside] of next) if ((under === path || under.startsWith(`${path}/`)) && !changed.includes(inside)) changed.push(inside);
  }
  return { removed, changed };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('applyManifestDelta', () => {
  it('gives the manifest built from the whole new tree, for 300 random workspaces and changes', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const baseEntries = randomWorkspace(random);
      const nextEntries = randomChange(baseEntries, random);
      const base = buildTrees([...baseEntries.values()]);
      const expected = buildTrees([...nextEntries.values()]);
      const { read } = readerOf(base.objects);
      const applied = await applyManifestDelta(base.root, deltaBetween(baseEntries, nextEntries, random), read);
      expect(applied.root, `seed ${seed}`).toBe(expected.root);
      const known = new Set([...base.objects, ...applied.objects].map((object) => object.hash));
      for (const object of expected.objects) expect(known.has(object.hash), `seed ${seed}: tree ${object.hash} stored`).toBe(true);
    }
  });

  it('reads and writes only the trees on the changed paths', async () => {
    const entries = [dir('big')];
    for (let index = 0; index < 200; index++) entries.push(dir(`big/d${index}`), file(`big/d${index}/f`));
    entries.push(dir('src'), file('src/main.ts', 'v1'));
    const base = buildTrees(entries);
    const { read, reads } = readerOf(base.objects);
    const applied = await applyManifestDelta(base.root, { removed: [], changed: [file('src/main.ts', 'v2')] }, read);
    expect(reads).toHaveLength(2); // the root and src
    expect(applied.objects).toHaveLength(2); // src, then the root
    expect(applied.root).toBe(buildTrees(entries.map((entry) => (entry.path === 'src/main.ts' ? file('src/main.ts', 'v2') : entry))).root);
  });

  it('builds from the empty workspace when there is no base', async () => {
    const entries = [dir('a'), file('a/b'), link('c', 'a/b')];
    const applied = await applyManifestDelta(null, { removed: ['ignored'], changed: entries }, readerOf().read);
    expect(applied.root).toBe(buildTrees(entries).root);
  });

  it('refuses a path under a file, a path changed twice and a malformed path; names a tree that is not stored', async () => {
    const base = buildTrees([file('f')]);
    const { read } = readerOf(base.objects);
    await expect(applyManifestDelta(base.root, { removed: [], changed: [file('f/under')] }, read)).rejects.toThrow(TypeError);
    await expect(applyManifestDelta(base.root, { removed: [], changed: [file('g'), file('g', 'again')] }, read)).rejects.toThrow(/twice/);
    await expect(applyManifestDelta(base.root, { removed: ['../x'], changed: [] }, read)).rejects.toThrow(TypeError);
    await expect(applyManifestDelta('0'.repeat(64), { removed: [], changed: [file('g')] }, read)).rejects.toThrow(MissingTreeObjectError);
  });
});
