import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobsOf } from '../src/manifest';
import { SnapshotStore } from '../src/snapshot-store';
import { blobFilesIn, useTemporaryDirectories } from './fs-fixture';

const child = join(import.meta.dirname, 'crash-child.mjs');

/** Runs crash-child.mjs; resolves with its stdout lines and how it ended. */
function runChild(args: string[]): Promise<{ lines: string[]; signal: NodeJS.Signals | null; code: number | null }> {
  const running = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  running.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    running.once('error', reject);
    running.once('exit', (code, signal) => resolve({ lines: out.split('\n').filter(Boolean), signal, code }));
  });
}

/** Every manifest checks out whole (each blob present and hashing to its name). */
async function expectEveryManifestChecksOut(snapshots: string, scratch: string): Promise<number> {
  const store = new SnapshotStore(snapshots);
  const manifests = await store.manifests();
  for (const manifest of manifests) {
    const target = join(scratch, `check-${randomBytes(6).toString('hex')}`);
    await mkdir(target);
    await store.checkout(manifest, target);
  }
  return manifests.length;
}

async function workspaceOf(dir: string, files: number, tag: string): Promise<string> {
  const workspace = join(dir, 'ws');
  await mkdir(workspace, { recursive: true });
  for (let i = 0; i < files; i++) await writeFile(join(workspace, `f${i}`), Buffer.concat([Buffer.from(`${tag} ${i}\n`), randomBytes(8192)]));
  return workspace;
}

describe('crash points', () => {
  const temporary = useTemporaryDirectories();

  it.each([
    ['blob-file-created', 1],
    ['blob-file-created', 30],
    ['blob-renamed', 1],
    ['blob-renamed', 30],
  ])('a checkpoint killed at %s #%i leaves only whole snapshots, and the next checkpoint over the leftovers is whole', async (point, n) => {
    await stat(join(import.meta.dirname, '../dist/index.js')); // The child runs the built package (turbo builds before test).
    const dir = await temporary('crash-point');
    const workspace = await workspaceOf(dir, 60, 'first');
    const snapshots = join(dir, 'snapshots');
    const killed = await runChild(['checkpoint', workspace, snapshots, '1', `${point}:${n}`]);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.lines).toEqual([]);
    const next = await runChild(['checkpoint', workspace, snapshots, '1']);
    expect(next.code).toBe(0);
    expect(await expectEveryManifestChecksOut(snapshots, dir)).toBe(1);
  });

  it.each([
    ['manifest-removed', 1],
    ['blob-removed', 1],
    ['blob-removed', 45],
  ])('garbage collection killed at %s #%i leaves every manifest whole, and the next collection removes exactly the unreferenced blobs', async (point, n) => {
    await stat(join(import.meta.dirname, '../dist/index.js'));
    const dir = await temporary('gc-crash');
    const snapshots = join(dir, 'snapshots');
    const store = new SnapshotStore(snapshots, { racyWindowNs: 0n });
    const ids: string[] = [];
    for (let round = 0; round < 4; round++) ids.push((await store.checkpoint(await workspaceOf(dir, 30, `round ${round}`), 'ws', { labels: {} })).snapshotId);
    const killed = await runChild(['delete', snapshots, ids[0] as string, ids[1] as string, `${point}:${n}`]);
    expect(killed.signal).toBe('SIGKILL');
    expect(await expectEveryManifestChecksOut(snapshots, dir)).toBeGreaterThanOrEqual(2);
    // The killed collector's lock file is stale: the next collection runs, and finishes the job.
    await store.deleteSnapshot(ids[1] as string);
    const remaining = await store.manifests();
    expect(remaining.map((manifest) => manifest.snapshotId).sort()).toEqual([ids[2], ids[3]].sort());
    const referenced = new Set(remaining.flatMap((manifest) => [...blobsOf(manifest)]));
    const stored = (await blobFilesIn(join(snapshots, 'blobs'))).map((file) => file.replace('/', '').replace(/\.gz$/, ''));
    expect(stored.sort()).toEqual([...referenced].sort());
    expect(await readdir(join(snapshots, 'locks'))).toEqual([]);
  });
});
