/** `files.watchDir`: envd's `filesystem.Filesystem/WatchDir` stream over the sandbox's real directory. */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { FileNotFoundError, FilesystemEventType, InvalidArgumentError, Sandbox, type FilesystemEvent } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.js';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create(fixture.sdk);
});
afterAll(async () => {
  await sandbox.kill();
});

async function hostPath(sandboxPath: string): Promise<string> {
  const entry = (await fixture.emulator.state()).sandboxes.find((item) => item.sandboxId === sandbox.sandboxId);
  return path.join(entry?.directory ?? '/nonexistent', sandboxPath);
}

describe('files.watchDir', () => {
  it('reports a file created and then overwritten through files.write as CREATE and WRITE, with entry info', async () => {
    await sandbox.files.makeDir('watched');
    const events: FilesystemEvent[] = [];
    const handle = await sandbox.files.watchDir('watched', (event) => void events.push(event), { includeEntry: true });
    await sandbox.files.write('watched/a.txt', 'one');
    await sandbox.files.write('watched/a.txt', 'two, longer');
    expect(await eventually(() => events.filter((event) => event.name === 'a.txt' && event.type === FilesystemEventType.WRITE).length >= 2)).toBe(true);
    expect(events[0]).toMatchObject({ name: 'a.txt', type: FilesystemEventType.CREATE });
    const written = events.findLast((event) => event.type === FilesystemEventType.WRITE);
    expect(written?.entry).toMatchObject({ name: 'a.txt', path: '/home/user/watched/a.txt', type: 'file' });
    await handle.stop();
  });

  it('reports removes, chmods and changes made by commands', async () => {
    await sandbox.files.write('by-command/file.txt', 'x');
    const events: FilesystemEvent[] = [];
    const handle = await sandbox.files.watchDir('by-command', (event) => void events.push(event));
    const seen = (type: FilesystemEventType) => () => events.some((event) => event.type === type);
    await sandbox.commands.run('chmod 600 ~/by-command/file.txt');
    expect(await eventually(seen(FilesystemEventType.CHMOD))).toBe(true);
    await sandbox.commands.run('echo more >> ~/by-command/file.txt');
    expect(await eventually(seen(FilesystemEventType.WRITE))).toBe(true);
    await sandbox.commands.run('rm ~/by-command/file.txt');
    expect(await eventually(seen(FilesystemEventType.REMOVE))).toBe(true);
    expect(events.every((event) => event.name === 'file.txt')).toBe(true);
    await handle.stop();
  });

  it('a recursive watch names nested entries relative to the watched directory and follows new subdirectories', async () => {
    await sandbox.files.makeDir('tree/existing');
    const events: FilesystemEvent[] = [];
    const handle = await sandbox.files.watchDir('tree', (event) => void events.push(event), { recursive: true });
    await sandbox.files.write('tree/existing/a.txt', 'a');
    await sandbox.files.makeDir('tree/added');
    expect(await eventually(() => events.some((event) => event.name === 'added' && event.type === FilesystemEventType.CREATE))).toBe(true);
    await sandbox.files.write('tree/added/b.txt', 'b');
    expect(await eventually(() => events.some((event) => event.name === 'added/b.txt' && event.type === FilesystemEventType.WRITE))).toBe(true);
    expect(events.some((event) => event.name === 'existing/a.txt')).toBe(true);
    await handle.stop();
  });

  it('a non-recursive watch does not report changes in subdirectories', async () => {
    await sandbox.files.makeDir('flat/sub');
    const events: FilesystemEvent[] = [];
    const handle = await sandbox.files.watchDir('flat', (event) => void events.push(event));
    await sandbox.files.write('flat/sub/deep.txt', 'x');
    await sandbox.files.write('flat/top.txt', 'x');
    expect(await eventually(() => events.some((event) => event.name === 'top.txt'))).toBe(true);
    expect(events.some((event) => event.name.includes('deep'))).toBe(false);
    await handle.stop();
  });

  it('never follows a symbolic link out of the sandbox', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'watch-outside-'));
    try {
      await sandbox.files.makeDir('escape');
      await symlink(outside, await hostPath('/home/user/escape/link'));
      const events: FilesystemEvent[] = [];
      const handle = await sandbox.files.watchDir('escape', (event) => void events.push(event), { recursive: true });
      await writeFile(path.join(outside, 'secret.txt'), 'host');
      await sandbox.files.write('escape/marker.txt', 'x');
      expect(await eventually(() => events.some((event) => event.name === 'marker.txt'))).toBe(true);
      await delay(200);
      expect(events.some((event) => event.name.includes('secret'))).toBe(false);
      await handle.stop();
      // Watching the link itself resolves it inside the sandbox, where it leads nowhere.
      await expect(sandbox.files.watchDir('escape/link', () => undefined)).rejects.toBeInstanceOf(FileNotFoundError);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a missing directory is FileNotFoundError, a file InvalidArgumentError', async () => {
    await expect(sandbox.files.watchDir('no-such-dir', () => undefined)).rejects.toBeInstanceOf(FileNotFoundError);
    await sandbox.files.write('plain.txt', 'x');
    await expect(sandbox.files.watchDir('plain.txt', () => undefined)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('the watch ends when the sandbox is killed', async () => {
    const doomed = await Sandbox.create(fixture.sdk);
    let exited = false;
    await doomed.files.makeDir('w');
    await doomed.files.watchDir('w', () => undefined, { onExit: () => void (exited = true) });
    await doomed.kill();
    expect(await eventually(() => exited)).toBe(true);
  });
});
