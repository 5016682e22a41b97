/** `process.Process` through the real SDK's `sandbox.commands`: real bash, real isolation, real kills. */
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { CommandExitError, Sandbox, TimeoutError } from 'e2b';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';
import { eventually } from './support/eventually.js';

const fixture = useEmulator();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create({ ...fixture.sdk, envs: { FROM_CREATE: 'sandbox-wide' } });
});
afterAll(async () => {
  await sandbox.kill();
});

/** True while a process with this pid exists on the host. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('commands with the real e2b SDK', () => {
  it('returns stdout, stderr and exit code 0', async () => {
    const result = await sandbox.commands.run('echo out; echo err >&2');
    expect(result).toMatchObject({ exitCode: 0, stdout: 'out\n', stderr: 'err\n' });
  });

  it('throws CommandExitError with the exit code and both outputs on a non-zero exit', async () => {
    const error = await sandbox.commands.run('echo partial; echo oops >&2; exit 3').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommandExitError);
    expect(error).toMatchObject({ exitCode: 3, stdout: 'partial\n', stderr: 'oops\n', error: 'exit status 3' });
  });

  it('runs under bash -l in the requested cwd, with request envs over sandbox envs', async () => {
    await sandbox.files.makeDir('/home/user/work');
    const result = await sandbox.commands.run('pwd; echo "$FROM_CREATE $ONLY_HERE $HOME"; echo $0; shopt -q login_shell && echo login', {
      cwd: '/home/user/work',
      envs: { ONLY_HERE: 'per-call' },
    });
    expect(result.stdout).toBe('/home/user/work\nsandbox-wide per-call /home/user\n/bin/bash\nlogin\n');
    const overridden = await sandbox.commands.run('echo $FROM_CREATE', { envs: { FROM_CREATE: 'call wins' } });
    expect(overridden.stdout).toBe('call wins\n');
  });

  it('does not leak the emulator environment into commands', async () => {
    process.env.EMULATOR_SECRET_FOR_TEST = 'must-not-leak';
    try {
      expect((await sandbox.commands.run('echo "[$EMULATOR_SECRET_FOR_TEST]"')).stdout).toBe('[]\n');
    } finally {
      delete process.env.EMULATOR_SECRET_FOR_TEST;
    }
  });

  it('a file written through an absolute /home/user path is what files.read sees, and /tmp is the sandbox own', async () => {
    await sandbox.commands.run('echo from-command > /home/user/written-by-bash.txt; echo t > /tmp/sandbox-tmp.txt');
    expect(await sandbox.files.read('/home/user/written-by-bash.txt')).toBe('from-command\n');
    expect(await sandbox.files.read('/tmp/sandbox-tmp.txt')).toBe('t\n');
    await sandbox.files.write('/home/user/written-by-sdk.txt', 'from-sdk');
    expect((await sandbox.commands.run('cat /home/user/written-by-sdk.txt')).stdout).toBe('from-sdk');
  });

  it('gives each sandbox its own /home/user', async () => {
    const other = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/mine.txt', 'first sandbox');
    const error = await other.commands.run('cat /home/user/mine.txt').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommandExitError);
    await other.kill();
  });

  it('timeoutMs ends in TimeoutError and kills the whole process tree', async () => {
    const started = Date.now();
    const error = await sandbox.commands
      .run('(sleep 3; touch /home/user/child-survived) & sleep 3; touch /home/user/parent-survived', { timeoutMs: 400 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(2_700);
    await delay(3_300);
    expect(await sandbox.files.exists('/home/user/child-survived')).toBe(false);
    expect(await sandbox.files.exists('/home/user/parent-survived')).toBe(false);
  });

  it('background commands can be listed and killed by pid', async () => {
    const handle = await sandbox.commands.run('sleep 30', { background: true });
    expect(alive(handle.pid)).toBe(true);
    const listed = await sandbox.commands.list();
    expect(listed.map((info) => info.pid)).toContain(handle.pid);
    expect(await sandbox.commands.kill(handle.pid)).toBe(true);
    await expect(handle.wait()).rejects.toBeInstanceOf(CommandExitError);
    expect(alive(handle.pid)).toBe(false);
    expect(await sandbox.commands.kill(handle.pid)).toBe(false);
  });

  it('killing the sandbox kills its running processes and removes its directory', async () => {
    const doomed = await Sandbox.create(fixture.sdk);
    const handle = await doomed.commands.run('sleep 30', { background: true });
    const directory = (await fixture.emulator.state()).sandboxes.find((entry) => entry.sandboxId === doomed.sandboxId)?.directory;
    expect(directory && existsSync(directory)).toBe(true);
    await doomed.kill();
    expect(await eventually(() => !alive(handle.pid))).toBe(true);
    // Like E2B's, the kill answers at once; the directory goes right after.
    expect(await eventually(() => !existsSync(directory as string))).toBe(true);
  });

  it('streams large output intact and honours stdin when asked', async () => {
    const result = await sandbox.commands.run('head -c 3000000 /dev/zero | tr "\\0" "a"');
    expect(result.stdout.length).toBe(3_000_000);
    const handle = await sandbox.commands.run('cat', { background: true, stdin: true });
    await handle.sendStdin('piped in');
    await handle.closeStdin();
    expect((await handle.wait()).stdout).toBe('piped in');
  });
});
