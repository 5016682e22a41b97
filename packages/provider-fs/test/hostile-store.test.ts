import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from '../src/snapshot-store';
import { blobFilesIn, useTemporaryDirectories } from './fs-fixture';

const meta = { labels: {} };
const MiB = 1024 * 1024;

/** Blocks a file really takes on disk, in bytes (`du`, not its length). */
const allocatedBytes = async (path: string) => (await stat(path)).blocks * 512;

/** Opens (making them with `create`) the directories `segments` below `root`, one descriptor at a time: no path passes PATH_MAX. */
function openDeep(root: string, segments: string[], create: boolean): number {
  let fd = openSync(root, 'r');
  for (const segment of segments) {
    if (create) mkdirSync(`/proc/self/fd/${fd}/${segment}`);
    const next = openSync(`/proc/self/fd/${fd}/${segment}`, 'r');
    closeSync(fd);
    fd = next;
  }
  return fd;
}

/** Issue 34's hostile review of the snapshot store: each case a failing test before its fix. */
describe('snapshot store under hostile input', () => {
  const temporary = useTemporaryDirectories();

  async function setup(compress = true) {
    const dir = await realpath(await temporary('hostile'));
    await mkdir(join(dir, 'ws'));
    return { dir, workspace: join(dir, 'ws'), store: new SnapshotStore(join(dir, 'snapshots'), { racyWindowNs: 0n, compress }) };
  }

  it('one manifest that no longer parses breaks no other snapshot\'s delete, and the blobs it names are kept', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'damaged'), 'named by the damaged manifest');
    const damaged = await store.checkpoint(workspace, 'ws', meta);
    await writeFile(join(workspace, 'damaged'), 'named by the other snapshot only');
    const other = await store.checkpoint(workspace, 'ws', meta);
    const manifestPath = join(dir, 'snapshots', 'manifests', `${damaged.snapshotId}.json`);
    const text = await readFile(manifestPath, 'utf8');
    await writeFile(manifestPath, text.slice(0, text.indexOf('"skipped"'))); // truncated: no longer JSON
    expect(await store.deleteSnapshot(other.snapshotId)).toBe(true);
    const blobs = await blobFilesIn(join(dir, 'snapshots', 'blobs'));
    const damagedHash = (damaged.entries.find((entry) => entry.path === 'damaged') as { hash: string }).hash;
    expect(blobs.map((file) => file.replace('/', '').replace(/\.gz$/, ''))).toEqual([damagedHash]);
    expect(await store.deleteSnapshot(damaged.snapshotId)).toBe(true);
    expect(await blobFilesIn(join(dir, 'snapshots', 'blobs'))).toEqual([]);
  });

  it('dedup verifies the blob it reuses: a checkpoint of content whose stored blob was corrupted stores it again and restores', async () => {
    for (const [label, size] of [['small', 1000], ['streamed', 5 * MiB]] as const) {
      const { dir, workspace, store } = await setup(false);
      const content = Buffer.alloc(size, label);
      await writeFile(join(workspace, 'first'), content);
      const first = await store.checkpoint(workspace, 'ws', meta);
      const [blob] = await blobFilesIn(join(dir, 'snapshots', 'blobs'));
      await writeFile(join(dir, 'snapshots', 'blobs', blob!), Buffer.alloc(size, 'x')); // same size, other bytes
      await writeFile(join(workspace, 'second'), content); // a new path: the stat index does not know it
      const second = await store.checkpoint(workspace, 'ws', meta);
      expect(second.snapshotId).not.toBe(first.snapshotId);
      const target = join(dir, `out-${label}`);
      await mkdir(target);
      await store.checkout((await store.manifest(second.snapshotId))!, target);
      expect((await readFile(join(target, 'second'))).equals(content)).toBe(true);
    }
  });

  it('sweeps the temporary blobs a killed checkpoint left on its first use of the store, not at some later delete', async () => {
    const { dir, workspace, store } = await setup();
    await writeFile(join(workspace, 'a'), 'a');
    await store.checkpoint(workspace, 'ws', meta);
    const shard = join(dir, 'snapshots', 'blobs', 'ab');
    await mkdir(shard, { recursive: true });
    await writeFile(join(shard, '.0123456789abcdef.tmp'), Buffer.alloc(MiB)); // as a SIGKILLed writer leaves it
    await writeFile(join(dir, 'snapshots', 'blobs', '.fedcba9876543210.tmp'), Buffer.alloc(MiB));
    const restarted = new SnapshotStore(join(dir, 'snapshots'), { racyWindowNs: 0n });
    await writeFile(join(workspace, 'b'), 'b');
    await restarted.checkpoint(workspace, 'ws', meta);
    expect(await readdir(shard)).toEqual([]);
    expect((await readdir(join(dir, 'snapshots', 'blobs'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('sparse files stay sparse: in the store and in every checkout, raw or compressed', async () => {
    for (const compress of [false, true]) {
      const { dir, workspace, store } = await setup(compress);
      const sparse = join(workspace, 'sparse.img');
      execFileSync('truncate', ['-s', '24M', sparse]);
      await writeFile(join(workspace, 'sparse-with-data.img'), 'head');
      execFileSync('truncate', ['-s', '24M', join(workspace, 'sparse-with-data.img')]);
      const { snapshotId } = await store.checkpoint(workspace, 'ws', meta);
      for (const file of await blobFilesIn(join(dir, 'snapshots', 'blobs'))) {
        expect(await allocatedBytes(join(dir, 'snapshots', 'blobs', file))).toBeLessThan(MiB);
      }
      for (const child of ['a', 'b']) {
        const target = join(dir, `out-${child}`);
        await mkdir(target);
        await store.checkout((await store.manifest(snapshotId))!, target);
        expect((await stat(join(target, 'sparse.img'))).size).toBe(24 * MiB);
        expect(await allocatedBytes(join(target, 'sparse.img'))).toBeLessThan(MiB);
        expect(await allocatedBytes(join(target, 'sparse-with-data.img'))).toBeLessThan(MiB);
        expect((await readFile(join(target, 'sparse-with-data.img'))).subarray(0, 5).toString()).toBe('head\0');
      }
    }
  });

  it('stores names byte-exact: a non-UTF-8 name is never dropped, and two names that decode alike stay two files', async () => {
    const { dir, workspace, store } = await setup();
    const latin1 = Buffer.concat([Buffer.from(`${workspace}/p`), Buffer.from([0xff])]);
    const replacement = Buffer.concat([Buffer.from(`${workspace}/p`), Buffer.from([0xef, 0xbf, 0xbd])]);
    await writeFile(latin1, '1');
    await writeFile(replacement, '2');
    const { snapshotId, entries } = await store.checkpoint(workspace, 'ws', meta);
    expect(entries.map((entry) => entry.path).sort()).toEqual(['p\udcff', 'p\ufffd']);
    const target = join(dir, 'out');
    await mkdir(target);
    await store.checkout((await store.manifest(snapshotId))!, target);
    expect((await readdir(target, { encoding: 'buffer' })).map((name) => name.toString('hex')).sort()).toEqual(['70efbfbd', '70ff']);
    expect(await readFile(Buffer.concat([Buffer.from(`${target}/p`), Buffer.from([0xff])]), 'utf8')).toBe('1');
    expect(await readFile(join(target, 'p\ufffd'), 'utf8')).toBe('2');
    await writeFile(join(workspace, 'another'), 'a second snapshot');
    const other = await store.checkpoint(workspace, 'ws', meta);
    expect(await store.deleteSnapshot(other.snapshotId)).toBe(true);
    expect(await store.deleteSnapshot(snapshotId)).toBe(true);
  });

  it('a tree deeper than PATH_MAX checkpoints and checks out whole', async () => {
    const { dir, workspace, store } = await setup();
    const segments = Array.from({ length: 25 }, () => 'd'.repeat(200)); // 25 × 201 bytes: past PATH_MAX (4096)
    writeFileSync(`/proc/self/fd/${openDeep(workspace, segments, true)}/file`, 'deep');
    try {
      const { snapshotId, entries } = await store.checkpoint(workspace, 'ws', meta);
      expect(entries.filter((entry) => entry.kind === 'file')).toHaveLength(1);
      const target = join(dir, 'out');
      await mkdir(target);
      await store.checkout((await store.manifest(snapshotId))!, target);
      expect(readFileSync(`/proc/self/fd/${openDeep(target, segments, false)}/file`, 'utf8')).toBe('deep');
    } finally {
      execFileSync('rm', ['-rf', dir]); // coreutils rm walks by descriptor; fs.rm cannot remove such a tree
    }
  });
});
