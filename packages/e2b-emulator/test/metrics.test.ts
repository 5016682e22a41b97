/** `sandbox.getMetrics`: measured samples of a running sandbox, filtered by time range. */
import { Sandbox, SandboxNotFoundError } from 'e2b';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();

describe('sandbox metrics', () => {
  it('a sample reports the real size of the sandbox files and its nominal totals', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.files.write('/home/user/big.bin', new Uint8Array(300_000).buffer);
    const [metric] = await sandbox.getMetrics();
    expect(metric).toMatchObject({ cpuCount: 2, memTotal: 512 * 1024 * 1024, diskTotal: 10_240 * 1024 * 1024 });
    expect(metric!.diskUsed).toBeGreaterThanOrEqual(300_000);
    expect(metric!.diskUsed).toBeLessThan(400_000);
    expect(metric!.timestamp.getTime()).toBeGreaterThan(Date.now() - 5_000);
    await sandbox.kill();
  });

  it('a running command counts in memory used', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.commands.run('sleep 30', { background: true });
    const [metric] = await sandbox.getMetrics();
    expect(metric!.memUsed).toBeGreaterThan(0);
    await sandbox.kill();
  });

  it('a range before the sandbox existed has no samples; a range around now has them', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    const start = new Date();
    expect(await sandbox.getMetrics({ start, end: new Date(Date.now() + 1_000) })).toHaveLength(1);
    expect(await sandbox.getMetrics({ start: new Date(start.getTime() - 3_600_000), end: new Date(start.getTime() - 1_800_000) })).toEqual([]);
    await sandbox.kill();
  });

  it('a killed sandbox has no metrics (SandboxNotFoundError)', async () => {
    const sandbox = await Sandbox.create(fixture.sdk);
    await sandbox.kill();
    await expect(Sandbox.getMetrics(sandbox.sandboxId, fixture.sdk)).rejects.toBeInstanceOf(SandboxNotFoundError);
  });
});
