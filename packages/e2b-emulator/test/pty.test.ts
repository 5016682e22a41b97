/** `sandbox.pty`: a real pseudo-terminal (python3 relay) inside the sandbox's isolation. */
import { readdir, readFile } from 'node:fs/promises';
import { Sandbox } from 'e2b';
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

const decoder = new TextDecoder();
const input = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A PTY whose output accumulates in `output()`. */
async function terminal(on: Sandbox, options: { cols?: number; rows?: number; envs?: Record<string, string> } = {}) {
  let output = '';
  const handle = await on.pty.create({ cols: options.cols ?? 80, rows: options.rows ?? 24, envs: options.envs, onData: (data) => void (output += decoder.decode(data)) });
  return { handle, output: () => output };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Host pids whose command line is exactly `argv`. */
async function hostProcesses(argv: string[]): Promise<number[]> {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    if ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')) === wanted) found.push(Number(pid));
  }
  return found;
}

describe('sandbox.pty', () => {
  it('runs an interactive shell on a terminal: input in, output out, its envs, exit code 0', async () => {
    const { handle, output } = await terminal(sandbox, { envs: { ABC: 'value-123' } });
    await sandbox.pty.sendInput(handle.pid, input('[ -t 0 ] && [ -t 1 ] && echo "on-a-$((1+1))-tty"; echo "$ABC $TERM"; exit\n'));
    const result = await handle.wait();
    expect(result.exitCode).toBe(0);
    expect(output()).toContain('on-a-2-tty');
    expect(output()).toContain('value-123 xterm-256color');
  });

  it('has the size it was created with, and the size resize gives it', async () => {
    const { handle, output } = await terminal(sandbox, { cols: 91, rows: 33 });
    await sandbox.pty.sendInput(handle.pid, input('stty size\n'));
    expect(await eventually(() => output().includes('33 91'))).toBe(true);
    await sandbox.pty.resize(handle.pid, { cols: 120, rows: 40 });
    await sandbox.pty.sendInput(handle.pid, input('tput cols; exit\n'));
    await handle.wait();
    expect(output()).toContain('120');
  });

  it('a reconnect follows the terminal output; the pid is the same', async () => {
    const { handle } = await terminal(sandbox);
    await handle.disconnect();
    let again = '';
    const reconnected = await sandbox.pty.connect(handle.pid, { onData: (data) => void (again += decoder.decode(data)) });
    await sandbox.pty.sendInput(handle.pid, input('echo "re$((40+2))"; exit 7\n'));
    const exit = await reconnected.wait().catch((error: { exitCode: number }) => error);
    expect(reconnected.pid).toBe(handle.pid);
    expect(exit.exitCode).toBe(7);
    expect(again).toContain('re42');
  });

  it('kill ends the terminal and everything in its session, background jobs included', async () => {
    const { handle, output } = await terminal(sandbox);
    await sandbox.pty.sendInput(handle.pid, input('sleep 32123 & echo "job-$((2+3))"\n'));
    expect(await eventually(() => output().includes('job-5'))).toBe(true);
    expect(await eventually(async () => (await hostProcesses(['sleep', '32123'])).length > 0)).toBe(true);
    expect(await sandbox.pty.kill(handle.pid)).toBe(true);
    expect(await eventually(() => !alive(handle.pid))).toBe(true);
    expect(await eventually(async () => (await hostProcesses(['sleep', '32123'])).length === 0)).toBe(true);
    expect(await sandbox.pty.kill(handle.pid)).toBe(false);
  });

  it('runs inside the sandbox isolation, as ordinary commands do', async () => {
    const { handle, output } = await terminal(sandbox);
    await sandbox.pty.sendInput(handle.pid, input('pwd; test -e /work && echo "host-$((1))-visible"; echo "done-$((9))"; exit\n'));
    await handle.wait();
    expect(output()).toContain('done-9');
    if (fixture.emulator.isolation.mode === 'mount-namespace') {
      expect(output()).toContain('/home/user');
      expect(output()).not.toContain('host-1-visible');
    }
  });

  it('the relay dies with the sandbox', async () => {
    const doomed = await Sandbox.create(fixture.sdk);
    const { handle } = await terminal(doomed);
    expect(alive(handle.pid)).toBe(true);
    await doomed.kill();
    expect(await eventually(() => !alive(handle.pid))).toBe(true);
  });

  it('a resize of a process without a terminal is refused', async () => {
    const started = await sandbox.commands.run('sleep 30', { background: true });
    await expect(sandbox.pty.resize(started.pid, { cols: 10, rows: 10 })).rejects.toThrow(/no PTY/);
    await started.kill();
  });
});
