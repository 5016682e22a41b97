import { chmodSync, lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { removeTree } from '@runtimectl/testkit/server-process';
import { callDaemon } from './daemon-http';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The providers' workspace roots under the default state directory. */
const WORKSPACE_ROOTS = ['workspaces', join('fs', 'workspaces')];

/**
 * A workspace's own files in the fs snapshot store's layers mode: a layer's tree, a live
 * workspace's writable layer and work directory, a read-only view's mount point.
 */
const LAYER_CONTENT = /^fs\/snapshots\/(layers\/[^/]+\/root(\.copying)?|live\/[^/]+\/(upper|work)|views\/[^/]+)(\/|$)/;

/**
 * Whether `path` (relative to the state directory) is a workspace or inside one, or a layer of
 * one: the runtime's own files, whose modes are the runtime's. Workspace names never start with
 * a dot; what does, beside them, is the provider's bookkeeping.
 */
function inWorkspace(path: string): boolean {
  if (LAYER_CONTENT.test(path)) return true;
  return WORKSPACE_ROOTS.some((root) => {
    const rest = relative(root, path);
    return rest !== '' && !rest.startsWith('..') && !rest.startsWith('.');
  });
}

interface Entry {
  path: string;
  kind: 'directory' | 'file' | 'other';
  mode: number;
}

function walk(stateDir: string): Entry[] {
  const entries: Entry[] = [];
  const visit = (absolute: string) => {
    const info = lstatSync(absolute);
    const path = relative(stateDir, absolute);
    entries.push({ path, kind: info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other', mode: info.mode & 0o7777 });
    if (info.isDirectory()) for (const name of readdirSync(absolute)) visit(join(absolute, name));
  };
  visit(stateDir);
  return entries;
}

/** Every path outside workspaces that is not owner-only: directories 0700, files 0600. */
function notOwnerOnly(stateDir: string): string[] {
  return walk(stateDir)
    .filter((entry) => !inWorkspace(entry.path))
    .filter((entry) => entry.mode !== (entry.kind === 'directory' ? 0o700 : 0o600))
    .map((entry) => `${entry.mode.toString(8).padStart(4, '0')} ${entry.kind} ${entry.path || '.'}`);
}

async function start(stateDir: string, snapshotStore: SnapshotStore): Promise<RuntimedProcess> {
  const daemon = await startRuntimed([], { RUNTIMECTL_PROVIDERS_FS_SNAPSHOT_STORE: snapshotStore }, stateDir);
  cleanups.push(() => daemon.stop());
  return daemon;
}

/** A session on both host providers: fs with checkpoints, a checkout, pause and resume; local with a command. */
async function session(url: string): Promise<void> {
  const ok = async (path: string, body: unknown) => {
    const answer = await callDaemon(url, path, body);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer.body;
  };
  await ok('/runtimes/open', { runtime_id: 'fs-1', conversation_id: 'c', sender_id: 's' });
  await ok('/runtimes/write-file', { runtime_id: 'fs-1', path: 'notes.txt', content_base64: Buffer.from('written').toString('base64') });
  await ok('/runtimes/exec', { runtime_id: 'fs-1', command: 'mkdir -p src && echo hi > src/a.txt && head -c 100000 /dev/zero > big.bin' });
  const first = await ok('/runtimes/checkpoint', { runtime_id: 'fs-1', name: 'first' });
  await ok('/runtimes/exec', { runtime_id: 'fs-1', command: 'echo later > src/a.txt' });
  await ok('/runtimes/checkout', { checkpoint_id: first.checkpoint_id });
  await ok('/runtimes/pause', { runtime_id: 'fs-1' });
  await ok('/runtimes/resume', { runtime_id: 'fs-1' });
  await ok('/runtimes/open', { runtime_id: 'local-1', conversation_id: 'c', sender_id: 's', provider: 'local' });
  await ok('/runtimes/exec', { runtime_id: 'local-1', command: 'echo y > y.txt' });
}

type SnapshotStore = 'copy' | 'layers';
/** What each fs snapshot store makes in a session (beside the database and local's bookkeeping). */
const STORE_MADE: Record<SnapshotStore, string[]> = {
  copy: [join('fs', 'snapshots', 'blobs'), join('fs', 'snapshots', 'manifests'), join('fs', 'snapshots', 'index')],
  layers: [join('fs', 'snapshots', 'layers'), join('fs', 'snapshots', 'live')],
};
const asRoot = process.getuid?.() === 0;

describe.each(['copy', 'layers'] as const)('the state directory (fs snapshots: %s)', (snapshotStore) => {
  // Layers are overlay mounts: root on Linux only.
  const it = snapshotStore === 'layers' && !asRoot ? test.skip : test;

  it('after a session with checkpoints, every file under it is 0600 and every directory 0700, but inside workspaces', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-modes-'));
    cleanups.push(() => removeTree(stateDir));
    const daemon = await start(stateDir, snapshotStore);
    await session(daemon.url);

    expect(notOwnerOnly(stateDir), 'while the daemon runs').toEqual([]);
    expect(await daemon.stop()).toBe(0);
    expect(notOwnerOnly(stateDir), 'after it stopped').toEqual([]);
    // The session made what the check covers: the store, snapshots, stat indexes, both providers' bookkeeping.
    const paths = walk(stateDir).map((entry) => entry.path);
    for (const made of ['runtimectl.db', ...STORE_MADE[snapshotStore], join('workspaces', '.owners')]) {
      expect(paths.some((path) => path.startsWith(made)), made).toBe(true);
    }
  });

  it('left world-readable by an older build, is made owner-only at start, workspace contents untouched', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'runtimed-modes-'));
    cleanups.push(() => removeTree(stateDir));
    const first = await start(stateDir, snapshotStore);
    await session(first.url);
    expect(await first.stop()).toBe(0);
    // What an older build left: 0755 directories and 0644 files everywhere, workspaces included.
    for (const entry of walk(stateDir)) if (entry.kind !== 'other') chmodSync(join(stateDir, entry.path), entry.kind === 'directory' ? 0o755 : 0o644);
    const workspaceModes = walk(stateDir).filter((entry) => inWorkspace(entry.path));
    expect(workspaceModes.length).toBeGreaterThan(0);

    const second = await start(stateDir, snapshotStore);

    expect(notOwnerOnly(stateDir)).toEqual([]);
    const after = walk(stateDir);
    const kept = workspaceModes.filter((before) => after.some((entry) => entry.path === before.path));
    expect(kept.map((entry) => entry.path)).toContain(join('workspaces', after.find((entry) => /^workspaces\/bkd_[^/]+\/y\.txt$/.test(entry.path))!.path.split('/')[1]!, 'y.txt'));
    expect(after.filter((entry) => kept.some((before) => before.path === entry.path))).toEqual(kept);
    expect((await callDaemon(second.url, '/runtimes/exec', { runtime_id: 'local-1', command: 'cat y.txt' })).status).toBe(200);
  });
});
