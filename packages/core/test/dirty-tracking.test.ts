import { describe, expect, it } from 'vitest';
import { createHarness } from './harness';

/** Checkpoints twice around `operation` and tells whether the second reused the snapshot. */
async function reusedAfter(operation: (h: ReturnType<typeof createHarness>, id: string) => Promise<unknown>) {
  const h = createHarness();
  const id = await h.open();
  await h.write(id, 'seed.txt', 'seed');
  await h.service.checkpoint({ runtime_id: id });
  const snapshotsBefore = h.provider.calls.checkpoint;
  await operation(h, id);
  const second = await h.service.checkpoint({ runtime_id: id });
  return { reused: second.reused_backend_snapshot, providerCalled: h.provider.calls.checkpoint > snapshotsBefore };
}

describe('dirty tracking (the seed: which operations mark the backend dirty)', () => {
  it('write_bytes marks the backend dirty, so the next checkpoint makes a new snapshot', async () => {
    expect(await reusedAfter((h, id) => h.write(id, 'a.txt', 'x'))).toEqual({ reused: false, providerCalled: true });
  });

  it('create_dir_all marks the backend dirty', async () => {
    expect(await reusedAfter((h, id) => h.service.mkdir({ runtime_id: id, path: 'dir/sub' }))).toEqual({
      reused: false,
      providerCalled: true,
    });
  });

  it('temp_path marks the backend dirty', async () => {
    expect(await reusedAfter((h, id) => h.service.tempPath({ runtime_id: id, kind: 'directory', prefix: 'scratch-' }))).toEqual({
      reused: false,
      providerCalled: true,
    });
  });

  it('exec marks the backend dirty even when the command exits non-zero', async () => {
    const outcome = await reusedAfter(async (h, id) => {
      const result = await h.service.exec({ runtime_id: id, command: 'exit 3' });
      expect(result.exit_code).toBe(3);
    });
    expect(outcome).toEqual({ reused: false, providerCalled: true });
  });

  it('stat, read_bytes, search and export do not mark the backend dirty', async () => {
    const outcome = await reusedAfter(async (h, id) => {
      await h.service.stat({ runtime_id: id, path: 'seed.txt' });
      await h.read(id, 'seed.txt');
      await h.service.search({ runtime_id: id, glob: '**/*' });
      await h.service.search({ runtime_id: id, grep: { query: 'seed' } });
      const exported = await h.service.export({ runtime_id: id, path: 'seed.txt' });
      for await (const chunk of exported.content) expect(chunk.byteLength).toBe(4);
    });
    expect(outcome).toEqual({ reused: true, providerCalled: false });
  });

  it('a write refused up front (path is a directory) still counts as a write: dirty is recorded before the provider answers', async () => {
    const outcome = await reusedAfter(async (h, id) => {
      await h.service.mkdir({ runtime_id: id, path: 'dir' });
      await h.service.checkpoint({ runtime_id: id });
      await expect(h.write(id, 'dir', 'x')).rejects.toMatchObject({ code: 'invalid_request' });
    });
    expect(outcome).toEqual({ reused: false, providerCalled: true });
  });

  it('an exec that failed at the provider marks the backend dirty (it may have changed files)', async () => {
    const outcome = await reusedAfter(async (h, id) => {
      h.provider.failNext('exec');
      await expect(h.service.exec({ runtime_id: id, command: 'true' })).rejects.toMatchObject({ code: 'provider_error' });
    });
    expect(outcome.reused).toBe(false);
  });
});
