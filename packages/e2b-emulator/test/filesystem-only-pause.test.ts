/**
 * E2B's filesystem-only pause (`pause({keepMemory: false})`, `lifecycle.onTimeout: {action:
 * 'pause', keepMemory: false}`, `connect({onResume: 'reboot'})`): only the disk is kept, so
 * resuming boots the sandbox cold — what ran in it is gone and the kernel's boot id is new —
 * while a pause with memory continues the same boot. Through the real SDK.
 */
import { readFile } from 'node:fs/promises';
import { Sandbox } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';
import { eventually } from './support/eventually.js';

const fixture = useEmulator();

const bootIdOf = async (sandbox: Sandbox) => (await sandbox.commands.run('cat /proc/sys/kernel/random/boot_id')).stdout.trim();
const hostProcessExists = async (pid: number) => (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)) !== undefined;

describe('a filesystem-only pause', () => {
  it('keeps the files, ends every process, and resumes as a fresh boot with a new boot id', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/kept.txt', 'kept');
    const job = await sandbox.commands.run('sleep 301', { background: true });
    const bootBefore = await bootIdOf(sandbox);

    await sandbox.pause({ keepMemory: false });
    expect(await sandbox.isRunning()).toBe(false);
    expect((await sandbox.getInfo()).state).toBe('paused');
    expect(await eventually(async () => !(await hostProcessExists(job.pid)))).toBe(true);

    const resumed = await sandbox.connect();
    expect(await resumed.files.read('/home/user/kept.txt')).toBe('kept');
    expect(await resumed.commands.list()).toEqual([]);
    expect((await resumed.commands.run("ps -eo args= | grep -cx 'sleep 301' || true")).stdout.trim()).toBe('0');
    const bootAfter = await bootIdOf(resumed);
    expect(bootAfter).toMatch(/^[0-9a-f-]{36}$/);
    expect(bootAfter).not.toBe(bootBefore);
    await resumed.kill();
  });

  it('is what a timeout does with onTimeout {action: pause, keepMemory: false}; connect boots it again', async () => {
    const sandbox = await Sandbox.create({ ...fixture.sdk, timeoutMs: 1_000, lifecycle: { onTimeout: { action: 'pause', keepMemory: false } } });
    await sandbox.files.write('/home/user/marker.txt', 'marker');
    const bootBefore = await bootIdOf(sandbox);
    expect(await eventually(async () => (await sandbox.getInfo()).state === 'paused', 10_000)).toBe(true);
    await sandbox.connect();
    expect(await sandbox.files.read('/home/user/marker.txt')).toBe('marker');
    expect(await bootIdOf(sandbox)).not.toBe(bootBefore);
    await sandbox.kill();
  });

  it('a pause with memory continues the same boot, and connect with onResume reboot starts a new one', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    const bootBefore = await bootIdOf(sandbox);
    await sandbox.pause();
    await sandbox.connect();
    expect(await bootIdOf(sandbox)).toBe(bootBefore);
    await sandbox.pause();
    await sandbox.connect({ onResume: 'reboot' });
    expect(await bootIdOf(sandbox)).not.toBe(bootBefore);
    await sandbox.kill();
  });
});
