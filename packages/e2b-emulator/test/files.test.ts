/** envd `/files` and `filesystem.Filesystem` through the real SDK's `sandbox.files`. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FileNotFoundError, InvalidArgumentError, Sandbox } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create(fixture.sdk);
});
afterAll(async () => {
  await sandbox.kill();
});

const allBytes = Uint8Array.from({ length: 256 }, (_, index) => index);

/** Where a sandbox path lives on the host, read from the emulator state. */
async function hostPath(sandboxPath: string): Promise<string> {
  const entry = (await fixture.emulator.state()).sandboxes.find((item) => item.sandboxId === sandbox.sandboxId);
  return path.join(entry?.directory ?? '/nonexistent', sandboxPath);
}

describe('files with the real e2b SDK', () => {
  it('writes text with multipart and reads it back; the file really is in the sandbox directory', async () => {
    const info = await sandbox.files.write('/home/user/notes/hello.txt', 'hello world');
    expect(info).toMatchObject({ name: 'hello.txt', type: 'file', path: '/home/user/notes/hello.txt' });
    expect(await sandbox.files.read('/home/user/notes/hello.txt')).toBe('hello world');
    expect(await readFile(await hostPath('/home/user/notes/hello.txt'), 'utf8')).toBe('hello world');
  });

  it('round-trips all 256 byte values over multipart and over octet-stream', async () => {
    await sandbox.files.write('/home/user/bin/multipart.bin', allBytes.buffer);
    await sandbox.files.write('/home/user/bin/octet.bin', allBytes.buffer, { useOctetStream: true });
    await sandbox.files.write('/home/user/bin/gzip.bin', allBytes.buffer, { gzip: true });
    for (const name of ['multipart.bin', 'octet.bin', 'gzip.bin']) {
      const bytes = await sandbox.files.read(`/home/user/bin/${name}`, { format: 'bytes' });
      expect(Buffer.from(bytes).equals(Buffer.from(allBytes))).toBe(true);
    }
    const streamed = new Blob([allBytes]).stream();
    await sandbox.files.write('/home/user/bin/stream.bin', streamed);
    expect(Buffer.from(await sandbox.files.read('/home/user/bin/stream.bin', { format: 'bytes' }))).toEqual(Buffer.from(allBytes));
  });

  it('writes several files in one multipart request without a path query, overwriting existing ones', async () => {
    await sandbox.files.write('/home/user/multi/a.txt', 'old');
    const written = await sandbox.files.write([
      { path: '/home/user/multi/a.txt', data: 'A' },
      { path: '/home/user/multi/deep/b.txt', data: 'B' },
      { path: 'relative.txt', data: 'R' },
    ]);
    expect(written.map((entry) => entry.path)).toEqual(['/home/user/multi/a.txt', '/home/user/multi/deep/b.txt', '/home/user/relative.txt']);
    expect(await sandbox.files.read('/home/user/multi/a.txt')).toBe('A');
    expect(await sandbox.files.read('/home/user/multi/deep/b.txt')).toBe('B');
    expect(await sandbox.files.read('~/relative.txt')).toBe('R');
  });

  it('reads an empty file as an empty string, and a missing file throws FileNotFoundError', async () => {
    await sandbox.files.write('/home/user/empty.txt', '');
    expect(await sandbox.files.read('/home/user/empty.txt')).toBe('');
    await expect(sandbox.files.read('/home/user/missing.txt')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('makeDir answers true then false, getInfo and list describe entries', async () => {
    expect(await sandbox.files.makeDir('/home/user/tree/sub')).toBe(true);
    expect(await sandbox.files.makeDir('/home/user/tree/sub')).toBe(false);
    await sandbox.files.write('/home/user/tree/file.txt', '12345');
    await sandbox.files.write('/home/user/tree/sub/inner.txt', 'x');

    const info = await sandbox.files.getInfo('/home/user/tree/file.txt');
    expect(info).toMatchObject({ name: 'file.txt', type: 'file', path: '/home/user/tree/file.txt', size: 5, permissions: '-rw-r--r--' });
    expect(info.modifiedTime).toBeInstanceOf(Date);
    expect((await sandbox.files.getInfo('/home/user/tree')).type).toBe('dir');

    const shallow = await sandbox.files.list('/home/user/tree');
    expect(shallow.map((entry) => `${entry.type}:${entry.path}`)).toEqual(['file:/home/user/tree/file.txt', 'dir:/home/user/tree/sub']);
    const deep = await sandbox.files.list('/home/user/tree', { depth: 2 });
    expect(deep.map((entry) => entry.path)).toContain('/home/user/tree/sub/inner.txt');
    await expect(sandbox.files.list('/home/user/nowhere')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('exists, remove and rename behave like envd', async () => {
    await sandbox.files.write('/home/user/move/from.txt', 'moving');
    expect(await sandbox.files.exists('/home/user/move/from.txt')).toBe(true);
    const moved = await sandbox.files.rename('/home/user/move/from.txt', '/home/user/move/to/dest.txt');
    expect(moved).toMatchObject({ name: 'dest.txt', path: '/home/user/move/to/dest.txt', type: 'file' });
    expect(await sandbox.files.exists('/home/user/move/from.txt')).toBe(false);
    expect(await sandbox.files.read('/home/user/move/to/dest.txt')).toBe('moving');

    await sandbox.files.remove('/home/user/move');
    expect(await sandbox.files.exists('/home/user/move/to/dest.txt')).toBe(false);
    await expect(sandbox.files.rename('/home/user/ghost', '/home/user/x')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('remove of a missing path succeeds, as envd (os.RemoveAll) does', async () => {
    await expect(sandbox.files.remove('/home/user/never-was')).resolves.toBeUndefined();
    await expect(sandbox.files.remove('/home/user/no/such/parent/either')).resolves.toBeUndefined();
  });

  it('getInfo reports mode as the permission bits only, and a symlink by its resolved target (as envd)', async () => {
    await sandbox.commands.run(
      'mkdir -p /home/user/modes/dir && cd /home/user/modes && chmod 755 dir && printf hello > file.txt && chmod 640 file.txt' +
        ' && ln -s file.txt link && ln -s link chain && ln -s /home/user/modes/dir dirlink && ln -s missing dangling',
    );
    expect(await sandbox.files.getInfo('/home/user/modes/dir')).toMatchObject({ type: 'dir', mode: 0o755, permissions: 'drwxr-xr-x' });
    expect((await sandbox.files.getInfo('/home/user/modes/dir')).mode).toBe(493);
    expect(await sandbox.files.getInfo('/home/user/modes/file.txt')).toMatchObject({ type: 'file', mode: 0o640, permissions: '-rw-r-----' });
    const link = await sandbox.files.getInfo('/home/user/modes/link');
    expect(link).toMatchObject({ type: 'file', mode: 0o640, symlinkTarget: '/home/user/modes/file.txt', path: '/home/user/modes/link' });
    expect(link.permissions).toBe('Lrwxrwxrwx');
    expect((await sandbox.files.getInfo('/home/user/modes/chain')).symlinkTarget).toBe('/home/user/modes/file.txt');
    expect(await sandbox.files.getInfo('/home/user/modes/dirlink')).toMatchObject({ type: 'dir', mode: 0o755, symlinkTarget: '/home/user/modes/dir' });
    // envd cannot resolve it: the target reads as the link itself and the type as unknown.
    const dangling = await sandbox.files.getInfo('/home/user/modes/dangling');
    expect(dangling).toMatchObject({ type: undefined, mode: 0, symlinkTarget: '/home/user/modes/dangling' });
    // A listing does not descend into a symlinked directory.
    const listed = await sandbox.files.list('/home/user/modes', { depth: 3 });
    expect(listed.map((entry) => entry.path)).not.toContain('/home/user/modes/dirlink/file.txt');
    expect((await sandbox.files.getInfo('/home/user/modes/file.txt')).symlinkTarget).toBeUndefined();
  });

  it('keeps every path inside the sandbox: .. above / is refused, symlinks resolve within the sandbox', async () => {
    await expect(sandbox.files.read('/../../etc/hostname')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(sandbox.files.getInfo('/home/../../etc')).rejects.toBeInstanceOf(InvalidArgumentError);
    await sandbox.files.write('/home/user/target.txt', 'inside');
    // An absolute symlink target means the sandbox's own /, not the host's.
    await sandbox.commands.run('ln -s /home/user/target.txt /home/user/link.txt && ln -s / /home/user/root-link');
    expect(await sandbox.files.read('/home/user/link.txt')).toBe('inside');
    expect(await sandbox.files.getInfo('/home/user/link.txt')).toMatchObject({ type: 'file', symlinkTarget: '/home/user/target.txt' });
    await expect(sandbox.files.read('/home/user/root-link/etc/hostname')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('reading a directory is an invalid argument', async () => {
    await expect(sandbox.files.read('/home/user')).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
