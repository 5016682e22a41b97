import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeStateOwnerOnly, type StateLocations } from './owner-only-state';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'owner-only-'));
  directories.push(directory);
  return directory;
}

const modeOf = (path: string) => statSync(path).mode & 0o7777;

/** The default layout: state dir, its SQLite file, fs snapshots and a workspace root inside it. */
function layout(stateDir: string): StateLocations {
  return {
    stateDir,
    stores: [{ path: join(stateDir, 'fs', 'snapshots'), key: 'providers.fs.snapshots' }],
    files: [join(stateDir, 'runtimectl.db')],
    workspaceRoots: [{ path: join(stateDir, 'workspaces'), key: 'providers.local.root' }],
  };
}

describe('makeStateOwnerOnly', () => {
  it('creates a missing state directory 0700', () => {
    const stateDir = join(scratch(), 'nested', 'state');
    makeStateOwnerOnly(layout(stateDir));
    expect(modeOf(stateDir)).toBe(0o700);
  });

  it('tightens what an older build left 0755/0644 — store, snapshots, workspace bookkeeping — and leaves workspaces and foreign files in the state directory as they are', () => {
    const stateDir = scratch();
    mkdirSync(join(stateDir, 'fs', 'snapshots', 'blobs', 'ab'), { recursive: true });
    writeFileSync(join(stateDir, 'fs', 'snapshots', 'blobs', 'ab', 'cdef'), 'blob');
    mkdirSync(join(stateDir, 'workspaces', '.owners'), { recursive: true });
    writeFileSync(join(stateDir, 'workspaces', '.owners', 'bkd_1.json'), '{}');
    mkdirSync(join(stateDir, 'workspaces', 'bkd_1', 'src'), { recursive: true });
    writeFileSync(join(stateDir, 'workspaces', 'bkd_1', 'src', 'a.txt'), 'runtime file');
    writeFileSync(join(stateDir, 'runtimectl.db'), '');
    writeFileSync(join(stateDir, 'operator-notes.txt'), 'not runtimectl\'s');
    for (const path of ['fs', 'fs/snapshots', 'fs/snapshots/blobs', 'fs/snapshots/blobs/ab', 'workspaces', 'workspaces/.owners', 'workspaces/bkd_1', 'workspaces/bkd_1/src', '.']) chmodSync(join(stateDir, path), 0o755);
    for (const path of ['fs/snapshots/blobs/ab/cdef', 'workspaces/.owners/bkd_1.json', 'workspaces/bkd_1/src/a.txt', 'runtimectl.db', 'operator-notes.txt']) chmodSync(join(stateDir, path), 0o644);

    makeStateOwnerOnly(layout(stateDir));

    const modes = Object.fromEntries(
      ['.', 'fs', 'fs/snapshots', 'fs/snapshots/blobs/ab', 'fs/snapshots/blobs/ab/cdef', 'workspaces', 'workspaces/.owners', 'workspaces/.owners/bkd_1.json', 'runtimectl.db', 'workspaces/bkd_1', 'workspaces/bkd_1/src/a.txt', 'operator-notes.txt'].map((path) => [path, modeOf(join(stateDir, path)).toString(8)]),
    );
    expect(modes).toEqual({
      '.': '700',
      fs: '700',
      'fs/snapshots': '700',
      'fs/snapshots/blobs/ab': '700',
      'fs/snapshots/blobs/ab/cdef': '600',
      workspaces: '700',
      'workspaces/.owners': '700',
      'workspaces/.owners/bkd_1.json': '600',
      'runtimectl.db': '600',
      // The runtime's own files, and a file runtimectl did not make: as they were, behind the 0700 directories.
      'workspaces/bkd_1': '755',
      'workspaces/bkd_1/src/a.txt': '644',
      'operator-notes.txt': '644',
    });
  });

  it('refuses a state directory that is shared: the file system\'s root, a sticky directory like /tmp, one holding other users\' files', () => {
    expect(() => makeStateOwnerOnly(layout('/'))).toThrow(/^state_dir \/: is the root of the file system; runtimed makes its state owner-only \(0700\) and will not do that to a shared directory/);
    const sticky = scratch();
    chmodSync(sticky, 0o1777);
    expect(() => makeStateOwnerOnly(layout(sticky))).toThrow(/is shared \(its sticky bit is set, as on \/tmp\)/);
    expect(modeOf(sticky)).toBe(0o1777);
    if (process.getuid?.() !== 0) return; // only root can give a file to another user
    const shared = scratch();
    writeFileSync(join(shared, 'postgresql'), '');
    chownSync(join(shared, 'postgresql'), 4711, 4711);
    chmodSync(shared, 0o755);
    expect(() => makeStateOwnerOnly(layout(shared))).toThrow(`state_dir ${shared}: holds postgresql, which belongs to another user`);
    expect(modeOf(shared)).toBe(0o755);
  });
});
