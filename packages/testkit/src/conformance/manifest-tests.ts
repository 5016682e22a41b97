import { createHash } from 'node:crypto';
import { expect, type TestContext } from 'vitest';
import { applyManifestDelta, buildTrees, type ManifestEntry, type ProviderBackend, type TreeObject } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { utf8 } from './expect-helpers';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const byPath = (a: ManifestEntry, b: ManifestEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The same small tree, written the same way: nested directories, a name with spaces, binary content. */
async function writeTree(backend: ProviderBackend): Promise<void> {
  await backend.createDirAll('manifest/src/empty dir');
  await backend.writeBytes('manifest/src/main file.ts', utf8('export const answer = 42;\n'));
  await backend.writeBytes('manifest/data.bin', new Uint8Array([0, 1, 2, 255, 0, 10]));
  await backend.writeBytes('manifest/README.md', utf8('# manifest conformance\n'));
}

/** The entries under `manifest/`: what the test wrote, whatever else the provider's workspace holds. */
async function manifestOf(backend: ProviderBackend): Promise<ManifestEntry[]> {
  const entries = await backend.manifest!();
  return entries.filter((entry) => entry.path === 'manifest' || entry.path.startsWith('manifest/')).sort(byPath);
}

/**
 * Content manifests (`ProviderBackend.manifest`, optional: these tests skip for a backend
 * without it). The same tree gives the same entries, so the same root hash, on every backend
 * and every provider; a file's entry carries the sha256 and size of its content; a write shows.
 */
export function manifestTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'content manifests', ({ harness, test }) => {
    const withManifest = async (context: TestContext) => {
      const created = await harness.createBackend();
      context.skip(!created.backend.manifest, `provider ${harness.provider.providerId} has no manifest: checkpoints record none, so this does not apply`);
      return created.backend;
    };

    test('two backends holding the same files produce the same manifest and the same root hash', async (context) => {
      const first = await withManifest(context);
      const { backend: second } = await harness.createBackend();
      await writeTree(first);
      await writeTree(second);
      const [a, b] = [await manifestOf(first), await manifestOf(second)];
      expect(a).toStrictEqual(b);
      expect(buildTrees(a).root).toBe(buildTrees(b).root);
      expect(a.map(({ path, kind }) => `${kind} ${path}`)).toStrictEqual([
        'directory manifest',
        'file manifest/README.md',
        'file manifest/data.bin',
        'directory manifest/src',
        'directory manifest/src/empty dir',
        'file manifest/src/main file.ts',
      ]);
    });

    test("a file's entry holds its content's sha256 and size, a directory's none", async (context) => {
      const backend = await withManifest(context);
      const content = new Uint8Array([0, 1, 2, 255, 0, 10]);
      await backend.writeBytes('manifest/data.bin', content);
      const entries = await manifestOf(backend);
      expect(entries.find((entry) => entry.path === 'manifest/data.bin')).toMatchObject({ kind: 'file', size: 6, hash: sha256(content), target: null });
      expect(entries.find((entry) => entry.path === 'manifest')).toMatchObject({ kind: 'directory', size: 0, hash: null, target: null });
      for (const entry of await backend.manifest!()) {
        expect(entry.path, 'a workspace-relative path').not.toMatch(/^\/|(^|\/)\.\.?(\/|$)|\/$/);
        expect(Number.isInteger(entry.mode) && entry.mode >= 0 && entry.mode <= 0o7777, `${entry.path}: permission bits`).toBe(true);
      }
    });

    test("a snapshot that carries its manifest carries the backend's manifest at the checkpoint", async (context) => {
      const { provider } = harness;
      const { backend, request } = await harness.createBackend();
      context.skip(!backend.manifest || !provider.checkpoint, `provider ${provider.providerId} has no manifest or no checkpoint`);
      await writeTree(backend);
      const snapshot = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      try {
        context.skip(snapshot.manifest === undefined, `provider ${provider.providerId}'s snapshots do not carry their manifest: core asks the backend`);
        expect([...snapshot.manifest!].sort(byPath)).toStrictEqual((await backend.manifest!()).sort(byPath));
      } finally {
        await provider.deleteSnapshot?.(snapshot.snapshotId);
      }
    });

    test("a snapshot that carries a manifest delta: applied to its base snapshot's manifest, it gives the backend's manifest at the checkpoint", async (context) => {
      const { provider } = harness;
      const { backend, request } = await harness.createBackend();
      context.skip(!backend.manifest || !provider.checkpoint, `provider ${provider.providerId} has no manifest or no checkpoint`);
      await writeTree(backend);
      // A link to the host's root, which the next snapshot turns into a directory: the delta must never list what the link names.
      await backend.exec({ command: 'ln -s / manifest/escape', maxOutputBytes: 4096 });
      const first = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      const trees = new Map<string, Uint8Array>();
      const read = async (hashes: readonly string[]) => new Map(hashes.filter((hash) => trees.has(hash)).map((hash) => [hash, trees.get(hash)!]));
      const keep = (objects: TreeObject[]) => objects.forEach((object) => trees.set(object.hash, object.body));
      const snapshots = [first.snapshotId];
      try {
        context.skip(first.manifestDelta === undefined, `provider ${provider.providerId}'s snapshots carry no manifest delta: core records their whole manifest`);
        const firstTrees = buildTrees(await backend.manifest!());
        keep(firstTrees.objects);
        expect(first.manifestDelta!.baseSnapshotId, 'the first snapshot of a new workspace: a delta from the empty one').toBeNull();
        expect((await applyManifestDelta(null, first.manifestDelta!, read)).root).toBe(firstTrees.root);
        // Every kind of change: a file rewritten, a directory removed whole and made again (an
        // overlayfs opaque directory), a file turned into a directory and a directory into a
        // file, a mode changed, a link added, a file replaced by a FIFO (never in a manifest).
        const change = [
          'printf changed > "manifest/src/main file.ts"',
          'rm -r "manifest/src/empty dir" && mkdir "manifest/src/empty dir" && echo again > "manifest/src/empty dir/new"',
          'rm manifest/data.bin && mkdir manifest/data.bin && echo inside > manifest/data.bin/file',
          'chmod 700 manifest/src',
          'ln -s README.md manifest/link',
          'rm manifest/README.md && mkfifo manifest/README.md',
          'rm manifest/escape && mkdir manifest/escape && echo inside > manifest/escape/f',
        ].join(' && ');
        const result = await backend.exec({ command: change, maxOutputBytes: 4096 });
        expect(result.exitCode, new TextDecoder().decode(result.stderr)).toBe(0);
        const second = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
        snapshots.push(second.snapshotId);
        expect(second.manifestDelta, 'the second snapshot carries a delta too').toBeDefined();
        expect(second.manifestDelta!.baseSnapshotId).toBe(first.snapshotId);
        expect(second.manifestDelta!.removed.filter((path) => path.startsWith('manifest/escape/')), 'names read through the link').toEqual([]);
        const applied = await applyManifestDelta(firstTrees.root, second.manifestDelta!, read);
        expect(applied.root).toBe(buildTrees(await backend.manifest!()).root);
      } finally {
        for (const snapshotId of snapshots) await provider.deleteSnapshot?.(snapshotId);
      }
    });

    test('the manifest reflects a write: the changed file, and only it, has a new hash', async (context) => {
      const backend = await withManifest(context);
      await writeTree(backend);
      const before = await manifestOf(backend);
      await backend.writeBytes('manifest/src/main file.ts', utf8('export const answer = 43;\n'));
      const after = await manifestOf(backend);
      const changed = after.filter((entry, index) => JSON.stringify(entry) !== JSON.stringify(before[index])).map(({ path }) => path);
      expect(changed).toStrictEqual(['manifest/src/main file.ts']);
      expect(buildTrees(after).root).not.toBe(buildTrees(before).root);
    });

    test("a restored workspace's manifest equals the checkpoint's: checkout of a snapshot gives the same root (what verified restores compare)", async (context) => {
      const { backend, request } = await harness.createBackend();
      const provider = harness.provider;
      context.skip(!backend.manifest || !provider.checkpoint || !provider.checkout, `provider ${provider.providerId} has no manifest or no snapshots to restore, so this does not apply`);
      await writeTree(backend);
      const checkpointed = buildTrees(await backend.manifest!()).root;
      const { snapshotId } = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      const { backend: restored } = await harness.checkoutBackend(snapshotId);
      expect(await manifestOf(restored)).toStrictEqual(await manifestOf(backend));
      expect(buildTrees(await restored.manifest!()).root).toBe(checkpointed);
    });
  });
}
