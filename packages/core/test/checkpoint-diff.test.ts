import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTrees, CheckpointDiffRequestSchema, diffTrees, type ManifestEntry, type TreeReader } from '@runtimectl/core';
import { diffEntryOf } from '../src/runtime/diff-checkpoints';
import { createHarness, rejectionOf } from './harness';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (path: string, content: string, mode = 0o644): ManifestEntry => ({ path, kind: 'file', mode, size: content.length, target: null, hash: sha(content) });
const directory = (path: string, mode = 0o755): ManifestEntry => ({ path, kind: 'directory', mode, size: 0, target: null, hash: null });
const symlink = (path: string, target: string): ManifestEntry => ({ path, kind: 'symlink', mode: 0o777, size: target.length, target, hash: null });

/** A reader over `objects` that counts the tree objects it was asked for. */
function countingReader(...trees: Array<ReturnType<typeof buildTrees>>): { read: TreeReader; reads: string[] } {
  const all = new Map(trees.flatMap(({ objects }) => objects.map(({ hash, body }) => [hash, body] as const)));
  const reads: string[] = [];
  return {
    reads,
    read: async (hashes) => {
      reads.push(...hashes);
      return new Map(hashes.filter((hash) => all.has(hash)).map((hash) => [hash, all.get(hash)!]));
    },
  };
}

describe('diff of two manifest trees', () => {
  it('classifies added, removed, modified, mode- and type-changed paths, sorted by path, with everything under a new or gone directory', async () => {
    const before = buildTrees([
      directory('gone'), file('gone/a', 'a'), file('same', 's'), file('edit', 'v1'), file('exec', 'x'),
      file('becomes-dir', 'f'), symlink('link', 'one'), directory('dir', 0o755),
    ]);
    const after = buildTrees([
      directory('new'), file('new/b', 'b'), file('same', 's'), file('edit', 'v2'), file('exec', 'x', 0o755),
      directory('becomes-dir'), file('becomes-dir/c', 'c'), symlink('link', 'two'), directory('dir', 0o700),
    ]);
    const { read } = countingReader(before, after);
    const changes = await diffTrees(before.root, after.root, read);
    expect(changes.map(({ path, change }) => `${change} ${path}`)).toStrictEqual([
      'type_changed becomes-dir',
      'added becomes-dir/c',
      'mode_changed dir',
      'modified edit',
      'mode_changed exec',
      'removed gone',
      'removed gone/a',
      'modified link',
      'added new',
      'added new/b',
    ]);
    expect(changes.find(({ path }) => path === 'edit')).toMatchObject({ before: { size: 2 }, after: { size: 2 } });
  });

  it("a symlink's entry carries its targets, so a patch can show what it pointed to and points to now", async () => {
    const before = buildTrees([symlink('link', 'one'), symlink('gone', 'x'), file('was-file', 'f')]);
    const after = buildTrees([symlink('link', 'two'), symlink('new', 'dir/y'), symlink('was-file', 'link')]);
    const { read } = countingReader(before, after);
    const entries = (await diffTrees(before.root, after.root, read)).map(diffEntryOf);
    expect(entries.map(({ path, change, old_target, new_target }) => ({ path, change, old_target, new_target }))).toStrictEqual([
      { path: 'gone', change: 'removed', old_target: 'x', new_target: null },
      { path: 'link', change: 'modified', old_target: 'one', new_target: 'two' },
      { path: 'new', change: 'added', old_target: null, new_target: 'dir/y' },
      { path: 'was-file', change: 'type_changed', old_target: null, new_target: 'link' },
    ]);
  });

  it('skips unchanged subtrees by hash: a one-file change in 10,000 files reads only the trees on its path', async () => {
    const entries = (changed?: string) =>
      Array.from({ length: 100 }, (_, d) => Array.from({ length: 100 }, (_, f) => `d${d}/f${f}`)).flat().map((path) => file(path, path === changed ? 'new' : path));
    const before = buildTrees(entries());
    const after = buildTrees(entries('d42/f7'));
    const { read, reads } = countingReader(before, after);
    expect((await diffTrees(before.root, after.root, read)).map(({ path, change }) => `${change} ${path}`)).toStrictEqual(['modified d42/f7']);
    expect(reads).toHaveLength(4); // both roots, both d42 trees
    expect(await diffTrees(before.root, before.root, read)).toStrictEqual([]);
  });
});

describe('POST /checkpoints/diff through the service', () => {
  it('compares two checkpoints: what an agent changed between them, with a summary', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'src/a.ts', 'a1');
    await h.write(id, 'src/b.ts', 'b');
    const first = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'src/a.ts', 'a2 longer');
    await h.write(id, 'docs/new.md', 'n');
    const second = await h.service.checkpoint({ runtime_id: id });
    const diff = await h.service.diff({ from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id });
    expect(diff.entries).toStrictEqual([
      { path: 'docs', change: 'added', old_kind: null, new_kind: 'directory', old_size: null, new_size: 0, old_mode: null, new_mode: 0o755, old_target: null, new_target: null },
      { path: 'docs/new.md', change: 'added', old_kind: null, new_kind: 'file', old_size: null, new_size: 1, old_mode: null, new_mode: 0o644, old_target: null, new_target: null },
      { path: 'src/a.ts', change: 'modified', old_kind: 'file', new_kind: 'file', old_size: 2, new_size: 9, old_mode: 0o644, new_mode: 0o644, old_target: null, new_target: null },
    ]);
    expect(diff).toMatchObject({ summary: { added: 2, removed: 0, modified: 1, mode_changed: 0, type_changed: 0 }, next_cursor: null });
    expect(diff.from_manifest_root).toBe(first.manifest_root);
  });

  it("compares a checkpoint with a runtime's live workspace, without checkpointing it", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'b.txt', 'b');
    const diff = await h.service.diff({ from_checkpoint_id: checkpoint.checkpoint_id, to_runtime_id: id });
    expect(diff.entries.map(({ path, change }) => `${change} ${path}`)).toStrictEqual(['added b.txt']);
    expect(diff.to_runtime_id).toBe(id);
    expect((await h.service.listCheckpoints(id)).checkpoints).toHaveLength(1);
  });

  it('pages through the changes in path order; the summary counts them all', async () => {
    const h = createHarness();
    const id = await h.open();
    const first = await h.service.checkpoint({ runtime_id: id });
    for (let index = 0; index < 7; index += 1) await h.write(id, `f${index}.txt`, String(index));
    const second = await h.service.checkpoint({ runtime_id: id });
    const paths: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.service.diff({ from_checkpoint_id: first.checkpoint_id, to_checkpoint_id: second.checkpoint_id, limit: 3, ...(cursor ? { cursor } : {}) });
      expect(page.entries.length).toBeLessThanOrEqual(3);
      expect(page.summary.added).toBe(7);
      paths.push(...page.entries.map(({ path }) => path));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(paths).toStrictEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'f6.txt']);
  });

  it('a checkpoint without a manifest: manifest_unavailable naming it', async () => {
    const h = createHarness({ provider: { manifests: false } });
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const error = await rejectionOf(h.service.diff({ from_checkpoint_id: checkpoint.checkpoint_id, to_checkpoint_id: checkpoint.checkpoint_id }));
    expect(error).toMatchObject({ code: 'manifest_unavailable', details: { checkpoint_id: checkpoint.checkpoint_id } });
    const live = await rejectionOf(h.service.diff({ from_checkpoint_id: checkpoint.checkpoint_id, to_runtime_id: id }));
    expect(live.code).toBe('manifest_unavailable');
  });

  it('an unknown checkpoint is checkpoint_not_found; a request names exactly one of to_checkpoint_id and to_runtime_id', async () => {
    const h = createHarness();
    const missing = `rtcp_${'0'.repeat(32)}`;
    expect((await rejectionOf(h.service.diff({ from_checkpoint_id: missing, to_checkpoint_id: missing }))).code).toBe('checkpoint_not_found');
    expect(CheckpointDiffRequestSchema.safeParse({ from_checkpoint_id: missing }).success).toBe(false);
    expect(CheckpointDiffRequestSchema.safeParse({ from_checkpoint_id: missing, to_checkpoint_id: missing, to_runtime_id: 'rt' }).success).toBe(false);
    expect(CheckpointDiffRequestSchema.safeParse({ from_checkpoint_id: missing, to_runtime_id: 'rt', limit: 501 }).success).toBe(false);
  });
});
