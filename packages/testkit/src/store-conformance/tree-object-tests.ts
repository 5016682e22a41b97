import { describe, expect } from 'vitest';
import { buildTrees, type ManifestEntry, type TreeObject } from '@runtimectl/core';
import { resolveStoreConformanceOptions, type StoreConformanceOptions } from './store-conformance-options';
import { checkpointIdOf, checkpointRecord, sessionRecord, unreadable } from './store-fixtures';
import { storeTest, useStoreHarness } from './store-harness';

const HASH_A = 'a'.repeat(64);

const fileEntry = (path: string, hash: string): ManifestEntry => ({ path, kind: 'file', mode: 0o644, size: 1, target: null, hash });

/** The trees of a small workspace; `variant` changes one file deep in it. */
function trees(variant: string): { root: string; objects: TreeObject[] } {
  return buildTrees([fileEntry('src/lib/a.ts', variant.repeat(64)), fileEntry('src/b.ts', HASH_A), fileEntry('README.md', HASH_A)]);
}

const bytesOf = (objects: Map<string, Uint8Array>) => new Map([...objects].map(([hash, body]) => [hash, Buffer.from(body).toString('hex')]));

/**
 * Manifest tree objects: committed with the checkpoint that names their root, content-addressed
 * (insert-or-ignore: a tree already stored costs nothing), read back byte for byte, and all or
 * nothing with the rest of their batch. A checkpoint's `manifestRoot` round-trips, null included.
 */
export function treeObjectTests(options: StoreConformanceOptions): void {
  const resolved = resolveStoreConformanceOptions(options);
  const test = storeTest(resolved);

  describe('manifest tree objects', () => {
    const harness = useStoreHarness(resolved);

    test("a checkpoint's manifest root and its tree objects read back as committed, byte for byte", async () => {
      const { root, objects } = trees('1');
      const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-1', { manifestRoot: root });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpoint], treeObjects: objects });
      expect(await harness.store.getCheckpoint(checkpointIdOf(1))).toStrictEqual(checkpoint);
      const read = await harness.store.getTreeObjects([...objects.map(({ hash }) => hash), HASH_A]);
      expect(bytesOf(read)).toStrictEqual(new Map(objects.map(({ hash, body }) => [hash, Buffer.from(body).toString('hex')])));
      expect(read.has(HASH_A)).toBe(false);
    });

    test('a checkpoint without a manifest reads back with a null root', async () => {
      const checkpoint = checkpointRecord(checkpointIdOf(1), 'rt-1', { manifestRoot: null });
      await harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [checkpoint] });
      expect((await harness.store.getCheckpoint(checkpointIdOf(1)))?.manifestRoot).toBeNull();
    });

    test('a tree already stored is ignored (content-addressed), also twice in one batch, and shared trees stay readable', async () => {
      const first = trees('1');
      const second = trees('2');
      await harness.store.commit({ treeObjects: first.objects });
      await harness.store.commit({ treeObjects: [...second.objects, ...second.objects] });
      const all = [...first.objects, ...second.objects];
      const read = await harness.store.getTreeObjects(all.map(({ hash }) => hash));
      expect(bytesOf(read)).toStrictEqual(new Map(all.map(({ hash, body }) => [hash, Buffer.from(body).toString('hex')])));
      // Only the changed file's directories are new: src/lib, src and the root; README's tree entry is shared.
      expect(new Set(second.objects.map(({ hash }) => hash)).size - second.objects.filter(({ hash }) => first.objects.some((o) => o.hash === hash)).length).toBe(3);
    });

    test('tree objects of a batch that fails are not stored', async () => {
      const { root, objects } = trees('3');
      const bad = unreadable(checkpointRecord(checkpointIdOf(1), 'rt-1', { manifestRoot: root }), 'metadata');
      await expect(harness.store.commit({ sessions: [sessionRecord('rt-1')], checkpoints: [bad], treeObjects: objects })).rejects.toThrow();
      expect((await harness.store.getTreeObjects(objects.map(({ hash }) => hash))).size).toBe(0);
    });

    test('reads of no hashes answer an empty map', async () => {
      expect((await harness.store.getTreeObjects([])).size).toBe(0);
    });
  });
}
