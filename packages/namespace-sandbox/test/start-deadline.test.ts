import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NamespaceSandbox, probeNamespaceSandbox, type SandboxSpec } from '../src/index';

// Setups made slow for real: the process group of each of the next `stall.count` `unshare`s is
// stopped (SIGSTOP) the moment it is spawned, as a machine too loaded to schedule it would, and
// kept in `stall.held` for the test to continue (SIGCONT) or leave stopped.
const stall = vi.hoisted(() => ({ count: 0, held: [] as ChildProcess[], commands: 0, heldCommands: [] as ChildProcess[] }));
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:child_process')>();
  const spawn = ((...args: Parameters<typeof actual.spawn>) => {
    const child = actual.spawn(...args);
    if (args[0] === 'unshare' && stall.count > 0 && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGSTOP');
      stall.count -= 1;
      stall.held.push(child);
    }
    return child;
  }) as typeof actual.spawn;
  // The probe's command inside the sandbox (`nsenter …`), stopped the same way when `stall.commands` > 0.
  const execFile = ((...args: Parameters<typeof actual.execFile>) => {
    const child = (actual.execFile as (...a: unknown[]) => ChildProcess)(...args);
    if (args[0] === 'nsenter' && stall.commands > 0 && child.pid !== undefined) {
      process.kill(child.pid, 'SIGSTOP');
      stall.commands -= 1;
      stall.heldCommands.push(child);
    }
    return child;
  }) as typeof actual.execFile;
  return { ...actual, spawn, execFile };
});

const scratch = await mkdtemp(join(tmpdir(), 'namespace-sandbox-deadline-'));
const probe = await probeNamespaceSandbox(join(scratch, 'probe'), { network: 'host' });
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function freshSpec(): Promise<SandboxSpec> {
  const base = await mkdtemp(join(scratch, 'case-'));
  await mkdir(join(base, 'root'));
  await mkdir(join(base, 'workspace'));
  return { rootMountPoint: join(base, 'root'), binds: [{ source: join(base, 'workspace'), target: join(base, 'workspace') }], network: 'host' };
}

/** Signals process group `pgid`; false when it is gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!probe.available)('how long a start may take', () => {
  it('a setup held up longer than the old 10 s bound still starts: the caller, not a short bound of its own, decides how long to wait', async () => {
    stall.count = 1;
    const starting = NamespaceSandbox.start(await freshSpec());
    const [setup] = stall.held.splice(0);
    setTimeout(() => signalGroup(setup!.pid!, 'SIGCONT'), 10_500);
    const sandbox = await starting;
    try {
      expect(await sandbox.isRunning()).toBe(true);
    } finally {
      await sandbox.kill(5_000);
    }
  }, 25_000);

  it('a setup that never gets ready still ends at the bound, and leaves no process behind', async () => {
    stall.count = 1;
    await expect(NamespaceSandbox.start(await freshSpec(), 500)).rejects.toThrow(/not ready within 500 ms/);
    const [setup] = stall.held.splice(0);
    await vi.waitFor(() => expect(signalGroup(setup!.pid!, 0)).toBe(false), { timeout: 10_000 });
  });

  it('runs at most `NamespaceSandbox.concurrentStarts` setups at once: one more waits for a free slot, then starts', async () => {
    const limit = NamespaceSandbox.concurrentStarts;
    const specs = await Promise.all(Array.from({ length: limit + 1 }, () => freshSpec()));
    stall.count = limit + 1;
    const starts = specs.map((spec) => NamespaceSandbox.start(spec));
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(stall.held).toHaveLength(limit);
    const first = stall.held[0]!;
    signalGroup(first.pid!, 'SIGCONT');
    await vi.waitFor(() => expect(stall.held).toHaveLength(limit + 1), { timeout: 20_000 });
    stall.count = 0;
    for (const setup of stall.held.splice(0)) signalGroup(setup.pid!, 'SIGCONT');
    const sandboxes = await Promise.all(starts);
    await Promise.all(sandboxes.map((sandbox) => sandbox.kill(5_000)));
  }, 120_000);

  it('a probe whose command is held up longer than 10 s still finds the machine able to isolate: `auto` never falls back to no isolation because the machine is busy', async () => {
    stall.commands = 1;
    const probing = probeNamespaceSandbox(join(scratch, 'slow-probe'), { network: 'host' });
    await vi.waitFor(() => expect(stall.heldCommands).toHaveLength(1), { timeout: 20_000 });
    const [command] = stall.heldCommands.splice(0);
    setTimeout(() => process.kill(command!.pid!, 'SIGCONT'), 10_500);
    expect(await probing).toEqual({ available: true });
  }, 40_000);
});
