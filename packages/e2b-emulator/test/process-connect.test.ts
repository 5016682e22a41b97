/** `commands.connect`: re-attaching to a running process by pid (envd's `process.Process/Connect`). */
import { Sandbox } from 'e2b';
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

describe('commands.connect', () => {
  it('follows the output from then on and ends with the exit of the process', async () => {
    const started = await sandbox.commands.run('sleep 0.5; echo later; echo oops >&2; exit 3', { background: true });
    const lines: string[] = [];
    const connected = await sandbox.commands.connect(started.pid, { onStdout: (data) => void lines.push(data) });
    expect(connected.pid).toBe(started.pid);
    const result = await connected.wait().catch((error: { exitCode: number; stderr: string }) => error);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toBe('oops\n');
    expect(lines.join('')).toBe('later\n');
  });

  it('a pid that runs nothing is refused', async () => {
    await expect(sandbox.commands.connect(999_999)).rejects.toThrow(/not found/);
  });

  it('disconnecting leaves the process running; a process outlives pause and resume', async () => {
    const started = await sandbox.commands.run('sleep 60', { background: true });
    const connected = await sandbox.commands.connect(started.pid);
    await connected.disconnect();
    await sandbox.pause();
    await sandbox.connect();
    expect((await sandbox.commands.list()).map((process) => process.pid)).toContain(started.pid);
    const again = await sandbox.commands.connect(started.pid);
    expect(again.pid).toBe(started.pid);
    expect(await sandbox.commands.kill(started.pid)).toBe(true);
  });
});
