import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SUDO_SCRIPT } from './sandbox-tools.js';

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
