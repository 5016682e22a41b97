import { execFile } from 'node:child_process';
import { chmod, lstat, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createBackend, localProvider, text, useTemporaryDirectories, utf8 } from './local-fixture';

const execFileAsync = promisify(execFile);
const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 };
const asRoot = process.getuid?.() === 0;

/** Opens every directory from `/` down to `directory` for others (x), as a state directory left at 0755 would be. */
async function traversableByOthers(directory: string): Promise<void> {
  for (let at = directory; at !== '/'; at = dirname(at)) {
    const { mode } = await lstat(at);
    await chmod(at, mode | 0o711);
  }
}

// Finding 1 of issue 31: root in a sandbox was root on the host. With a daemon running as root,
// sandboxed commands run as an unprivileged host identity (not uid 0) that owns nothing else.
describe.skipIf(!asRoot)('the host identity of sandboxed commands (daemon as root)', () => {
  const temporary = useTemporaryDirectories();

  it('a setuid shell a command leaves in its workspace gives a host user no root', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const made = await backend.exec({ ...exec, command: 'cp /bin/dash s && chmod 4755 s && ls -l s' });
    expect(made.exitCode).toBe(0);
    const workspace = await provider.workspaceDirectory(request.resource);
    await traversableByOthers(workspace);
    const { stdout } = await execFileAsync('su', ['nobody', '-s', '/bin/sh', '-c', `${join(workspace, 's')} -p -c 'id -u'`]);
    expect(stdout.trim()).not.toBe('0');
    expect(stdout.trim()).not.toBe('');
  });

  it('files a command creates belong to the sandbox identity on the host, never to root', async () => {
    const { provider } = await localProvider(temporary);
    const { identity } = await provider.isolation();
    expect(identity).toMatchObject({ uid: expect.any(Number), gid: expect.any(Number) });
    const { uid, gid } = identity as { uid: number; gid: number };
    expect(uid).not.toBe(0);
    const { backend, request } = await createBackend(provider);
    await backend.exec({ ...exec, command: 'mkdir d && echo x > d/f && ln -s d/f link && id -u' });
    const workspace = await provider.workspaceDirectory(request.resource);
    for (const path of ['', 'd', 'd/f', 'link']) {
      const info = await lstat(join(workspace, path));
      expect({ path, uid: info.uid, gid: info.gid }).toEqual({ path, uid, gid });
    }
  });

  it('files and directories the file API makes belong to the sandbox identity, so commands can change them', async () => {
    const { provider } = await localProvider(temporary);
    const { uid } = (await provider.isolation()).identity as { uid: number };
    const { backend, request } = await createBackend(provider);
    await backend.writeBytes('made/by/api.txt', utf8('api\n'));
    await backend.createDirAll('empty/dir');
    const temp = await backend.tempPath({ kind: 'file' });
    const result = await backend.exec({ ...exec, command: `echo cmd >> made/by/api.txt && touch empty/dir/x && echo t > ${temp} && echo ok` });
    expect(text(result.stdout)).toBe('ok\n');
    const workspace = await provider.workspaceDirectory(request.resource);
    for (const path of ['made', 'made/by', 'made/by/api.txt', 'empty', 'empty/dir', temp, '.tmp']) {
      expect({ path, uid: (await lstat(join(workspace, path))).uid }).toEqual({ path, uid });
    }
    expect(await readFile(join(workspace, 'made/by/api.txt'), 'utf8')).toBe('api\ncmd\n');
  });

  it('a command may chown only to its own identity: a host user id is refused', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: 'touch f; chown 0:0 f && echo own-ok; chown 1000 f 2>/dev/null || echo other-refused; chgrp 100 f 2>/dev/null || echo group-refused' });
    expect(text(result.stdout)).toBe('own-ok\nother-refused\ngroup-refused\n');
  });

  it('the workspace is mounted nosuid and nodev inside the sandbox', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: `awk -v ws="$PWD" '$5 == ws { print $6 }' /proc/self/mountinfo` });
    expect(text(result.stdout).trim().split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev']));
  });
});
