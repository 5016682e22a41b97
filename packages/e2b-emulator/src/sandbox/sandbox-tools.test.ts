import { execFile } from 'node:child_process';
import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSandboxTools, SUDO_SCRIPT } from './sandbox-tools.js';

/** Runs the sandbox's `sudo` with `args` in `env`, as a command inside would. */
function sudo(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', SUDO_SCRIPT, 'sudo', ...args], { env: { PATH: '/usr/bin:/bin', USER: 'user', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const show = ['sh', '-c', 'echo "[$FOO] $USER $HOME $SUDO_USER $PATH"'];

describe("the emulator sandbox's sudo", () => {
  it("runs the command as root with sudo's reset environment: the caller's variables do not reach it", async () => {
    const result = await sudo(show, { FOO: 'bar' });
    expect(result).toMatchObject({ code: 0, stdout: '[] root /root user /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n' });
  });

  it('keeps the caller\'s environment with -E, and runs as the user -u names', async () => {
    expect((await sudo(['-E', ...show], { FOO: 'bar' })).stdout).toBe('[bar] root /root user /usr/bin:/bin\n');
    expect((await sudo(['-u', 'user', '--', 'sh', '-c', 'echo $USER $HOME'])).stdout).toBe('user /home/user\n');
    expect((await sudo(['-n', '-H', 'true'])).code).toBe(0);
  });

  it('passes the command its exit status and arguments untouched', async () => {
    expect((await sudo(['sh', '-c', 'printf "%s|" "$@"; exit 7', 'x', 'a b', '-u', '"q"'])).stdout).toBe('a b|-u|"q"|');
    expect((await sudo(['sh', '-c', 'exit 7'])).code).toBe(7);
  });

  it('refuses an option it does not know, an unknown user, and no command, with sudo-like messages', async () => {
    expect(await sudo(['-K'])).toMatchObject({ code: 1, stderr: expect.stringContaining('-K') });
    expect(await sudo(['-u', 'nobody', 'true'])).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown user nobody') });
    expect(await sudo([])).toMatchObject({ code: 1, stderr: expect.stringContaining('usage') });
  });
});

describe("the emulator's sandbox tools", () => {
  const asRoot = process.getuid?.() === 0;

  it('name `user` (1000, /home/user) in /etc/passwd and /etc/group in place of any host entry of that id, in a directory only the emulator enters', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'sandbox-tools-'));
    try {
      const binds = await installSandboxTools(root);
      const passwd = binds.find((bind) => bind.target === '/etc/passwd')!;
      const lines = (await readFile(passwd.source, 'utf8')).split('\n');
      expect(lines.filter((line) => line.split(':')[2] === '1000')).toEqual(['user:x:1000:1000::/home/user:/bin/bash']);
      expect(lines.some((line) => line.startsWith('root:'))).toBe(true);
      expect((await lstat(path.join(root, 'sandbox-tools'))).mode & 0o777).toBe(0o700);
      expect(binds.every((bind) => bind.readOnly && !bind.setuid)).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.skipIf(!asRoot)("with two identities, sudo's helper is setuid and the root identity's, on the one setuid bind", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'sandbox-tools-'));
    try {
      const hostUsers = { root: { uid: 2_147_000_011, gid: 2_147_000_011 }, user: { uid: 2_147_001_011, gid: 2_147_001_011 } };
      const binds = await installSandboxTools(root, hostUsers);
      const sbin = binds.find((bind) => bind.target === '/usr/local/sbin')!;
      expect(sbin).toMatchObject({ readOnly: true, setuid: true });
      expect(await lstat(path.join(sbin.source, '.sudo-setpriv'))).toMatchObject({ uid: hostUsers.root.uid, gid: hostUsers.root.gid, mode: expect.any(Number) });
      expect((await lstat(path.join(sbin.source, '.sudo-setpriv'))).mode & 0o7777).toBe(0o4755);
      expect(binds.filter((bind) => bind.setuid)).toHaveLength(1);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
