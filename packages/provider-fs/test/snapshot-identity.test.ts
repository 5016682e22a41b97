import { randomBytes } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderBackend } from '@runtimectl/core';
import { createFsProvider, type FsProvider } from '../src/index';
import { useTemporaryDirectories } from './fs-fixture';

const asRoot = process.getuid?.() === 0;
const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;
const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 };

/** Every path under `directory` (itself included, as ''), never following a link. */
async function treeOf(directory: string, relative = ''): Promise<string[]> {
  const paths = [relative];
  const info = await lstat(join(directory, relative));
  if (!info.isDirectory()) return paths;
  for (const name of await readdir(join(directory, relative))) paths.push(...(await treeOf(directory, relative ? `${relative}/${name}` : name)));
  return paths;
}

// Finding 1 of issue 31, through snapshots: a setuid bit a command set must not come back from a
// checkout (or resume) on a file the daemon — root — wrote, and nothing restored may be root's.
// Both snapshot stores: the layers store keeps a command's files as they were (layers are its
// upper directories), so it must strip the same bits the copy store never records.
describe.skipIf(!asRoot).each(['copy', 'layers'] as const)('fs snapshots (%s store) and the sandbox identity (daemon as root)', (snapshotStore) => {
  const temporary = useTemporaryDirectories();
  const live: { provider: FsProvider; backendId: string; resource: ProviderBackend['resource'] }[] = [];
  afterEach(async () => {
    for (const { provider, backendId, resource } of live.splice(0)) await provider.release({ backendId, resource }).catch(() => undefined);
  });

  async function create(provider: FsProvider, snapshotId?: string): Promise<{ backend: ProviderBackend; directory: string }> {
    const backendId = newBackendId();
    const request = { backendId, runtimeId: 'rt', options: {}, labels: {} };
    const backend = snapshotId ? await provider.checkout({ ...request, snapshotId }) : await provider.create(request);
    live.push({ provider, backendId, resource: backend.resource });
    return { backend, directory: await provider.local.workspaceDirectory(backend.resource) };
  }

  it('a checkout restores no setuid or setgid bit, and every path it writes belongs to the sandbox identity', async () => {
    const dir = await temporary('identity');
    const provider = createFsProvider({ root: join(dir, 'workspaces'), snapshots: join(dir, 'snapshots'), snapshotStore });
    const { uid, gid } = (await provider.isolation()).identity!;
    const { backend: source } = await create(provider);
    const made = await source.exec({ ...exec, command: 'cp /bin/dash s && chmod 6755 s && mkdir -m 2775 shared && touch shared/f && chmod 1777 shared && ln -s s link' });
    expect(made.exitCode).toBe(0);
    const snapshot = await provider.checkpoint(source, { labels: {} });
    expect((snapshot.manifest ?? snapshot.manifestDelta?.changed)?.find((entry) => entry.path === 's')).toMatchObject({ mode: 0o755 });
    const { directory } = await create(provider, snapshot.snapshotId);
    expect((await lstat(join(directory, 's'))).mode & 0o7777).toBe(0o755);
    expect((await lstat(join(directory, 'shared'))).mode & 0o7777).toBe(0o1777);
    expect((snapshot.manifest ?? snapshot.manifestDelta?.changed)?.find((entry) => entry.path === 'shared')).toMatchObject({ mode: 0o1777 });
    for (const path of await treeOf(directory)) {
      const info = await lstat(join(directory, path));
      expect({ path, uid: info.uid, gid: info.gid }).toEqual({ path, uid, gid });
    }
  });
});
