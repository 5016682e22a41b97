import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError, providerCapabilities, ProviderSnapshotNotFoundError, type ProviderBackend } from '@runtimectl/core';
import { createFsProvider, type FsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;
const labels = (installation: string, backendId: string) => ({ runtimectl_installation: installation, runtimectl_backend_id: backendId });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('fs provider', () => {
  const temporary = useTemporaryDirectories();
  const live: { provider: FsProvider; backendId: string; resource: ProviderBackend['resource'] }[] = [];
  // Registered after the directories' hook, so it runs before it: release what a test opened, whatever it asserted.
  afterEach(async () => {
    for (const { provider, backendId, resource } of live.splice(0)) await provider.release({ backendId, resource }).catch(() => undefined);
  });

  async function fsProvider() {
    const dir = await temporary('provider');
    const provider = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots'), isolation: 'none' });
    return { dir, provider };
  }

  async function open(provider: FsProvider, installation = 'inst') {
    const backendId = newBackendId();
    const backend = await provider.create({ backendId, runtimeId: 'rt', options: {}, labels: labels(installation, backendId) });
    live.push({ provider, backendId, resource: backend.resource });
    return backend;
  }

  async function checkout(provider: FsProvider, snapshotId: string) {
    const backendId = newBackendId();
    const backend = await provider.checkout({ backendId, runtimeId: 'rt', options: {}, labels: labels('inst', backendId), snapshotId });
    live.push({ provider, backendId, resource: backend.resource });
    return backend;
  }

  it('answers to the provider id fs', async () => {
    expect((await fsProvider()).provider.providerId).toBe('fs');
  });

  it('declares filesystem snapshots: GET /providers tells them from memory snapshots (processes do not survive)', async () => {
    const { provider } = await fsProvider();
    // Declared, not left to core's default for providers that say nothing (also filesystem).
    expect(provider.snapshotKind).toBe('filesystem');
    expect(providerCapabilities(provider)).toMatchObject({ snapshot: true, pause: true, snapshot_kind: 'filesystem', restore_verification: 'default' });
  });

  it('checks out what real shell commands wrote, and commands run in the checked-out workspace', async () => {
    const { provider } = await fsProvider();
    const source = await open(provider);
    const wrote = await source.exec({ command: 'mkdir -p src && echo hi > src/a.txt && ln -s a.txt src/link', maxOutputBytes: 4096 });
    expect(wrote.exitCode).toBe(0);
    const { snapshotId } = await provider.checkpoint(source, { labels: {} });
    await source.exec({ command: 'echo later > src/a.txt', maxOutputBytes: 4096 });
    const copy = await checkout(provider, snapshotId);
    const read = await copy.exec({ command: 'cat src/link', maxOutputBytes: 4096 });
    expect(text(read.stdout)).toBe('hi\n');
    expect(copy.workspaceRoot).not.toBe(source.workspaceRoot);
  });

  it('errors of its backends name fs, not local: an operation on a vanished workspace, and attach to it', async () => {
    const { provider } = await fsProvider();
    const backend = await open(provider);
    const named = async (work: Promise<unknown>) => {
      const error = await work.then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      return { providerId: (error as ProviderError).providerId, message: (error as Error).message };
    };
    await rm(backend.workspaceRoot, { recursive: true, force: true });
    expect(await named(backend.stat('a.txt'))).toMatchObject({ providerId: 'fs', message: expect.stringMatching(/^fs stat failed: the workspace directory no longer exists/) });
    expect(await named(provider.attach({ backendId: 'bkd_x', resource: backend.resource }))).toMatchObject({ providerId: 'fs' });
  });

  it('lists the special files a checkpoint skipped', async () => {
    const { provider } = await fsProvider();
    const backend = await open(provider);
    await backend.exec({ command: 'mkfifo pipe', maxOutputBytes: 4096 });
    expect((await provider.checkpoint(backend, { labels: {} })).skipped).toEqual([{ path: 'pipe', kind: 'fifo' }]);
  });

  it('refuses checkout of a deleted snapshot as not found', async () => {
    const { provider } = await fsProvider();
    const backend = await open(provider);
    const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
    expect(await provider.deleteSnapshot(snapshotId)).toEqual({ deleted: true });
    expect(await provider.deleteSnapshot(snapshotId)).toEqual({ deleted: false });
    await expect(checkout(provider, snapshotId)).rejects.toBeInstanceOf(ProviderSnapshotNotFoundError);
  });

  it('fails checkout from a corrupted blob with an error naming the workspace path, no host path, and leaves no workspace', async () => {
    const { dir, provider } = await fsProvider();
    const backend = await open(provider);
    await backend.writeBytes('notes/plan.md', new Uint8Array(Buffer.from('the plan\n'.repeat(10))));
    const { snapshotId } = await provider.checkpoint(backend, { labels: {} });
    const blobs = join(dir, 'snapshots', 'blobs');
    for (const shard of await readdir(blobs)) {
      for (const name of await readdir(join(blobs, shard))) {
        const content = await readFile(join(blobs, shard, name));
        content[content.length - 1] = (content[content.length - 1] as number) ^ 0x01;
        await writeFile(join(blobs, shard, name), content);
      }
    }
    const workspacesBefore = await readdir(join(dir, 'workspaces'));
    const failed = checkout(provider, snapshotId);
    await expect(failed).rejects.toBeInstanceOf(ProviderError);
    await expect(failed).rejects.toThrow(/notes\/plan\.md is corrupted/);
    await expect(failed).rejects.not.toThrow(dir);
    expect(await readdir(join(dir, 'workspaces'))).toEqual(workspacesBefore);
  });

  it('lists the live backends and the snapshots of one installation', async () => {
    const { provider } = await fsProvider();
    const ours = await open(provider, 'ours');
    const theirs = await open(provider, 'theirs');
    const mine = await provider.checkpoint(ours, { labels: { runtimectl_installation: 'ours' } });
    await provider.checkpoint(theirs, { labels: { runtimectl_installation: 'theirs' } });
    const owned = await provider.listOwnedResources('ours');
    expect(owned.backends.map((backend) => backend.resource)).toEqual([ours.resource]);
    expect(owned.snapshots).toEqual([{ snapshotId: mine.snapshotId }]);
  });

  it('forgets a released workspace\'s stat index', async () => {
    const { dir, provider } = await fsProvider();
    const backend = await open(provider);
    await provider.checkpoint(backend, { labels: {} });
    expect(await readdir(join(dir, 'snapshots', 'index'))).toHaveLength(1);
    const { backendId, resource } = live.pop()!;
    await provider.release({ backendId, resource });
    expect(await readdir(join(dir, 'snapshots', 'index'))).toEqual([]);
  });
});
