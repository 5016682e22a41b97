import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findCgroupHost, NamespaceSandbox, probeNamespaceSandbox, sweepSandboxGroups, type SandboxSpec } from '../src/index';

const execFileAsync = promisify(execFile);
const scratch = await mkdtemp(join(tmpdir(), 'namespace-sandbox-limits-'));
const host = await findCgroupHost();
const limits = { memoryBytes: 64 * 1024 * 1024, pids: 32, cpuCores: 0.5 };
const probe = host.places ? await probeNamespaceSandbox(join(scratch, 'probe'), { network: 'none', limits, cgroups: host.places }) : { available: false as const, reason: host.reason };
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function spec(): Promise<SandboxSpec> {
  const base = await mkdtemp(join(scratch, 'case-'));
  await mkdir(join(base, 'root'));
  await mkdir(join(base, 'workspace'));
  return { rootMountPoint: join(base, 'root'), binds: [{ source: join(base, 'workspace'), target: '/work' }], network: 'none', limits, cgroups: host.places! };
}

async function inside(sandbox: NamespaceSandbox, script: string): Promise<string> {
  const { file, args } = sandbox.launch('/work', ['/bin/sh', '-c', script]);
  return (await execFileAsync(file, args, { timeout: 20_000 }).catch((error: { stdout: string }) => error)).stdout;
}

async function groupProcesses(sandbox: NamespaceSandbox): Promise<number[]> {
  const { name, places } = sandbox.record.cgroup!;
  const text = await readFile(join(places[0]!.directory, name, 'cgroup.procs'), 'utf8');
  return text.split('\n').filter(Boolean).map(Number);
}

describe.skipIf(!probe.available)('a sandbox with limits (its own cgroup)', () => {
  it('holds its init and every command it runs, which sees its cgroup as /', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    try {
      expect(await groupProcesses(sandbox)).toContain(sandbox.record.pid);
      expect(await inside(sandbox, 'cat /proc/self/cgroup | cut -d: -f3 | sort -u')).toBe('/\n');
      const pid = (await inside(sandbox, 'sleep 30 >/dev/null 2>&1 & echo $!')).trim();
      expect(Number(pid)).toBeGreaterThan(1);
      expect((await groupProcesses(sandbox)).length).toBeGreaterThanOrEqual(3);
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('counts refused forks and memory kills, and kills all but its init on request', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    try {
      expect(await sandbox.limitCounters()).toEqual({ oomKills: 0, pidsRefusals: 0 });
      await inside(sandbox, 'python3 -c "b = bytearray(128 * 1024 * 1024)" 2>/dev/null; for i in $(seq 40); do sleep 30 >/dev/null 2>&1 & done 2>/dev/null; true');
      const counters = await sandbox.limitCounters();
      expect(counters.pidsRefusals).toBeGreaterThan(0);
      expect(counters.oomKills).toBeGreaterThan(0);
      expect(await sandbox.killAllButInit(5_000)).toBe(true);
      // Left: the init, the host-side `unshare` above it (outside the PID namespace) and maybe the init's own `sleep 2`.
      const left = await groupProcesses(sandbox);
      expect(left).toContain(sandbox.record.pid);
      expect(left.length).toBeLessThanOrEqual(3);
      expect(await sandbox.isRunning()).toBe(true);
      expect(await inside(sandbox, 'echo still')).toBe('still\n');
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('removes its group when killed; a group left by a sandbox that ended by itself is swept', async () => {
    const killed = await NamespaceSandbox.start(await spec());
    const { name, places } = killed.record.cgroup!;
    await killed.kill(5_000);
    for (const place of places) expect(await readdir(place.directory)).not.toContain(name);

    const ended = await spec();
    const orphan = await NamespaceSandbox.start(ended);
    await rm(ended.binds[0]!.source, { recursive: true });
    const deadline = Date.now() + 6_000;
    while ((await orphan.isRunning()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await orphan.isRunning()).toBe(false);
    const left = orphan.record.cgroup!;
    expect(await readdir(left.places[0]!.directory)).toContain(left.name);
    expect(await sweepSandboxGroups(left.places, 0)).toBeGreaterThanOrEqual(1);
    for (const place of left.places) expect(await readdir(place.directory)).not.toContain(left.name);
  });
});
