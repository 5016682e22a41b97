import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, readdir, readFile, readlink, realpath, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotCorruptedError } from '../src/materialise';
import { parseManifest } from '../src/manifest';
import { SnapshotStore } from '../src/snapshot-store';
import { blobFilesIn, useTemporaryDirectories } from './fs-fixture';

const meta = { labels: {} };
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('snapshot store', () => {
  const temporary = useTemporaryDirectories();

  async function setup(racyWindowNs = 0n) {
    const dir = await realpath(await temporary('store'));
    const workspace = join(dir, 'ws');
    await mkdir(workspace);
    return { dir, workspace, store: new SnapshotStore(join(dir, 'snapshots'), { racyWindowNs }) };
  }

  it('checks out the tree it checkpointed: files, modes, empty and read-only directories, symlinks', async () => {
    const { dir, workspace, store } = await setup();
    await mkdir(join(workspace, 'src/deep'), { recursive: true });
    await mkdir(join(workspace, 'empty'));
    await writeFile(join(workspace, 'src/a.txt'), 'alpha');
    await writeFile(join(workspace, 'src/deep/run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await writeFile(join(workspace, 'empty-file'), '');
    await symlink('src/a.txt', join(workspace, 'link'));
    await symlink('/etc/hostname', join(workspace, 'outside'));
    await mkdir(join(workspace, 'locked'));
    await writeFile(join(workspace, 'locked/inside'), 'kept');
    await chmod(join(workspace, 'locked'), 0o555);
    const { snapshotId, skipped } = await store.checkpoint(workspace, 'ws', meta);
    expect(skipped).toEqual([]);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target);
    expect(await readFile(join(target, 'src/a.txt'), 'utf8')).toBe('alpha');
    expect((await stat(join(target, 'src/deep/run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(target, 'empty-file'), 'utf8')).toBe('');
    expect(await readdir(join(target, 'empty'))).toEqual([]);
    expect(await readlink(join(target, 'link'))).toBe('src/a.txt');
    expect(await readlink(join(target, 'outside'))).toBe('/etc/hostname');
    expect((await stat(join(target, 'locked'))).mode & 0o777).toBe(0o555);
    expect(await readFile(join(target, 'locked/inside'), 'utf8')).toBe('kept');
    await chmod(join(workspace, 'locked'), 0o755);
    await chmod(join(target, 'locked'), 0o755);
  });

  it('keeps every file it writes owner-only (0600, directories 0700): blobs, manifests, stat indexes — a checkout keeps the recorded modes', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'small.txt'), 'small', { mode: 0o644 });
    await writeFile(join(workspace, 'large.bin'), Buffer.alloc(5 * 1024 * 1024, 7), { mode: 0o644 });
    await writeFile(join(workspace, 'text.log'), 'a compressible line\n'.repeat(300_000), { mode: 0o644 });
    const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
    const modes: string[] = [];
    const visit = async (path: string): Promise<void> => {
      const info = await lstat(path);
      if ((info.mode & 0o777) !== (info.isDirectory() ? 0o700 : 0o600)) modes.push(`${(info.mode & 0o777).toString(8)} ${path.slice(dir.length)}`);
      if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
    };
    await visit(join(dir, 'snapshots'));
    expect(modes).toEqual([]);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target, 'out');
    expect((await stat(join(target, 'small.txt'))).mode & 0o777).toBe(0o644);
    await visit(join(dir, 'snapshots'));
    expect(modes).toEqual([]);
  });

  it('records a symlink to a host directory as a link, never walking or storing what it points to', async () => {
    const { dir, workspace, store } = await setup();
    const host = join(dir, 'host-secrets');
    await mkdir(host);
    await writeFile(join(host, 'secret'), 'host secret content');
    await symlink(host, join(workspace, 'escape'));
    const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
    expect((await store.manifest(snapshotId))!.entries).toEqual([{ path: 'escape', kind: 'symlink', target: host, mode: 0o777 }]);
    expect(await blobFilesIn(join(dir, 'snapshots/blobs'))).toEqual([]);
  });

  it('skips FIFOs and lists them in the checkpoint result', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'regular'), 'x');
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    const { snapshotId, skipped } = await store.checkpoint(workspace, 'ws', meta);
    expect(skipped).toEqual([{ path: 'pipe', kind: 'fifo' }]);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target);
    expect(await readdir(target)).toEqual(['regular']);
  });

  it('stores only new content on the next checkpoint and reads only the changed file again', async () => {
    const { dir, workspace, store } = await setup();
    for (let i = 0; i < 20; i++) await writeFile(join(workspace, `f${i}`), `content ${i}`);
    await settle();
    const first = await store.checkpoint(workspace, 'ws', meta);
    expect(first).toMatchObject({ hashedFiles: 20, reusedFiles: 0 });
    const blobsAfterFirst = await blobFilesIn(join(dir, 'snapshots/blobs'));
    expect(blobsAfterFirst).toHaveLength(20);
    await writeFile(join(workspace, 'f3'), 'changed');
    await writeFile(join(workspace, 'copy-of-f1'), 'content 1');
    await settle();
    const second = await store.checkpoint(workspace, 'ws', meta);
    expect(second).toMatchObject({ hashedFiles: 2, reusedFiles: 19 });
    expect(await blobFilesIn(join(dir, 'snapshots/blobs'))).toHaveLength(21);
  });

  it('reads a file again when its content changed with the same size and mtime', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'f'), 'aaaa');
    const { mtime } = await stat(join(workspace, 'f'));
    await settle();
    await store.checkpoint(workspace, 'ws', meta);
    await writeFile(join(workspace, 'f'), 'bbbb');
    await utimes(join(workspace, 'f'), mtime, mtime);
    await settle();
    const { snapshotId, hashedFiles } = await store.checkpoint(workspace, 'ws', meta);
    expect(hashedFiles).toBe(1);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target);
    expect(await readFile(join(target, 'f'), 'utf8')).toBe('bbbb');
  });

  it('does not trust the stat of a file changed just before the previous checkpoint (racily clean)', async () => {
    const { workspace, store } = await setup(60_000_000_000n);
    await writeFile(join(workspace, 'f'), 'aaaa');
    await store.checkpoint(workspace, 'ws', meta);
    expect(await store.checkpoint(workspace, 'ws', meta)).toMatchObject({ hashedFiles: 1, reusedFiles: 0 });
  });

  it.each(['corrupted', 'missing'] as const)('fails checkout naming the workspace path whose blob is %s', async (damage) => {
    const { dir, workspace, store } = await setup();
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src/good.txt'), 'fine');
    await writeFile(join(workspace, 'src/victim.bin'), Buffer.alloc(1000, 7));
    const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
    const manifest = (await store.manifest(snapshotId))!;
    const victim = manifest.entries.find((entry) => entry.path === 'src/victim.bin');
    const blob = (await store.blobs.pathOf(victim?.kind === 'file' ? victim.hash : ''))!;
    if (damage === 'missing') execFileSync('rm', [blob]);
    else {
      const content = await readFile(blob);
      content[content.length - 1] = (content[content.length - 1] as number) ^ 0x01;
      await writeFile(blob, content);
    }
    const target = join(dir, 'out');
    await mkdir(target);
    const checkout = store.checkout(manifest, target);
    await expect(checkout).rejects.toBeInstanceOf(SnapshotCorruptedError);
    await expect(checkout).rejects.toThrow(`the snapshot's content for src/victim.bin is ${damage}`);
    await expect(lstat(join(target, 'src/victim.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a manifest whose paths leave the workspace or pass through a symlink', () => {
    const base = { version: 1, snapshotId: 'snap_x', createdAt: '', labels: {}, rootMode: 0o755, skipped: [] };
    const withEntries = (entries: unknown[]) => JSON.stringify({ ...base, entries });
    expect(() => parseManifest(withEntries([{ path: '../x', kind: 'dir', mode: 0o755 }]))).toThrow(/not a relative path/);
    expect(() => parseManifest(withEntries([{ path: '/etc', kind: 'dir', mode: 0o755 }]))).toThrow(/not a relative path/);
    expect(() =>
      parseManifest(withEntries([{ path: 'l', kind: 'symlink', target: '/etc' }, { path: 'l/passwd', kind: 'file', mode: 0o644, size: 1, mtimeMs: 0, hash: 'a'.repeat(64) }])),
    ).toThrow(/does not follow its parent directory/);
    expect(parseManifest(withEntries([{ path: 'd', kind: 'dir', mode: 0o755 }, { path: 'd/l', kind: 'symlink', target: '..' }])).entries).toHaveLength(2);
  });

  it('deletes a manifest once; the snapshot is then gone', async () => {
    const { workspace, store } = await setup();
    await writeFile(join(workspace, 'f'), 'x');
    const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
    expect(await store.deleteManifest(snapshotId)).toBe(true);
    expect(await store.deleteManifest(snapshotId)).toBe(false);
    expect(await store.manifest(snapshotId)).toBeNull();
  });
});
