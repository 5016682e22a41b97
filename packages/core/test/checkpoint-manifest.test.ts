import { describe, expect, it } from 'vitest';
import { buildTrees, decodeTree } from '@runtimectl/core';
import { createHarness } from './harness';

describe('checkpoint manifests (the workspace content as Merkle trees, named by the checkpoint)', () => {
  it("a checkpoint records its workspace's manifest root and stores its tree objects", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'src/a.txt', 'alpha');
    const result = await h.service.checkpoint({ runtime_id: id });
    const backend = h.provider.fileSystemOf(h.provider.liveBackendIds()[0]!)!;
    expect(result.manifest_root).toBe(buildTrees(backend.manifest()).root);
    expect((await h.service.getCheckpoint(result.checkpoint_id)).manifest_root).toBe(result.manifest_root);
    const stored = await h.store.getTreeObjects([result.manifest_root!]);
    expect(decodeTree(stored.get(result.manifest_root!)!).map(({ name }) => name)).toEqual(['src']);
  });

  it('a write changes the next checkpoint root; an unchanged workspace keeps it', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'one');
    const first = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'a.txt', 'two');
    const second = await h.service.checkpoint({ runtime_id: id });
    await h.write(id, 'a.txt', 'one');
    const third = await h.service.checkpoint({ runtime_id: id });
    expect(second.manifest_root).not.toBe(first.manifest_root);
    expect(third.manifest_root).toBe(first.manifest_root);
  });

  it("a clean runtime's checkpoint reuses the previous manifest root without walking the workspace", async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const first = await h.service.checkpoint({ runtime_id: id });
    const walks = h.provider.calls.manifest;
    const second = await h.service.checkpoint({ runtime_id: id });
    expect(second.reused_backend_snapshot).toBe(true);
    expect(second.manifest_root).toBe(first.manifest_root);
    expect(h.provider.calls.manifest).toBe(walks);
  });

  it("a snapshot that carries its manifest is recorded as the checkpoint's, without a second walk", async () => {
    const h = createHarness({ provider: { snapshotManifests: true } });
    const id = await h.open();
    await h.write(id, 'src/a.txt', 'alpha');
    const walks = h.provider.calls.manifest;
    const result = await h.service.checkpoint({ runtime_id: id });
    const backend = h.provider.fileSystemOf(h.provider.liveBackendIds()[0]!)!;
    expect(result.manifest_root).toBe(buildTrees(backend.manifest()).root);
    expect(h.provider.calls.manifest).toBe(walks);
    const paused = await h.service.pause({ runtime_id: id });
    expect((await h.service.getCheckpoint(paused.checkpoint_id)).manifest_root).toBe(result.manifest_root);
    expect(h.provider.calls.manifest).toBe(walks);
  });

  it('a snapshot-less (local) checkpoint records its manifest too', async () => {
    const h = createHarness();
    const id = await h.open(undefined, 'nosnap');
    await h.write(id, 'notes.md', 'n');
    const result = await h.service.checkpoint({ runtime_id: id });
    expect(result.manifest_root).toMatch(/^[0-9a-f]{64}$/);
    expect((await h.service.getCheckpoint(result.checkpoint_id)).has_provider_snapshot).toBe(false);
  });

  it('a pause checkpoint records the manifest, and a checkpoint of the paused runtime reuses it', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const paused = await h.service.pause({ runtime_id: id });
    const pauseView = await h.service.getCheckpoint(paused.checkpoint_id);
    expect(pauseView.manifest_root).toMatch(/^[0-9a-f]{64}$/);
    expect((await h.service.checkpoint({ runtime_id: id })).manifest_root).toBe(pauseView.manifest_root);
  });

  it('a provider without manifests records none: manifest_root is null', async () => {
    const h = createHarness({ provider: { manifests: false } });
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const result = await h.service.checkpoint({ runtime_id: id });
    expect(result.manifest_root).toBeNull();
    expect((await h.service.getCheckpoint(result.checkpoint_id)).manifest_root).toBeNull();
  });
});
