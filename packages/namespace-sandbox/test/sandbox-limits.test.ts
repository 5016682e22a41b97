import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  const { file, args, env } = sandbox.launch('/work', ['/bin/sh', '-c', script], { PATH: '/usr/bin:/bin' });
  return (await execFileAsync(file, args, { timeout: 20_000, env }).catch((error: { stdout: string }) => error)).stdout;
}

/** Host pids in the sandbox's group `member` (`init` or `jobs`) of its first hierarchy. */
async function groupProcesses(sandbox: NamespaceSandbox, member: 'init' | 'jobs'): Promise<number[]> {
  const { name, places } = sandbox.record.cgroup!;
  const text = await readFile(join(places[0]!.directory, name, member, 'cgroup.procs'), 'utf8');
  return text.split('\n').filter(Boolean).map(Number);
}

/**
 * What the counting job last wrote to the workspace's `count`: '0' until it made the file. (The
 * command that starts the job returns at once; a first read before the job's first write found
 * no file, and failed a CI run.)
 */
async function countWritten(started: SandboxSpec): Promise<string> {
  return readFile(join(started.binds[0]!.source, 'count'), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '0';
    throw error;
  });
}

async function waitFor(condition: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Freezes the sandbox's jobs group with the kernel's own interface, as whileJobsFrozen does, and leaves it frozen. */
async function freezeByHand(sandbox: NamespaceSandbox): Promise<void> {
  const { name, places } = sandbox.record.cgroup!;
  const v1 = places.find((place) => place.controller === 'freezer');
  const v2 = places.find((place) => place.version === 'v2');
  if (v1) await writeFile(join(v1.directory, name, 'jobs', 'freezer.state'), 'FROZEN');
  else await writeFile(join(v2!.directory, name, 'jobs', 'cgroup.freeze'), '1');
}

describe.skipIf(!probe.available)('a sandbox with limits (its own cgroup)', () => {
  it('holds its init in a group of its own and every command it runs in its jobs group, which each command sees as /', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    try {
      expect(await groupProcesses(sandbox, 'init')).toContain(sandbox.record.pid);
      expect(await groupProcesses(sandbox, 'jobs')).toEqual([]);
      expect(await inside(sandbox, 'cat /proc/self/cgroup | cut -d: -f3 | sort -u')).toBe('/\n');
      const pid = (await inside(sandbox, 'sleep 30 >/dev/null 2>&1 & echo $!')).trim();
      expect(Number(pid)).toBeGreaterThan(1);
      expect(await groupProcesses(sandbox, 'jobs')).toHaveLength(1);
      expect(await groupProcesses(sandbox, 'init')).not.toContain(Number(pid));
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('counts 0 from its start, the jobs a command left while they run, and 0 once they ended', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    try {
      expect(await sandbox.runningProcesses()).toBe(0);
      await inside(sandbox, '(sleep 30; true) >/dev/null 2>&1 & setsid sleep 30 </dev/null >/dev/null 2>&1 & true');
      expect(await sandbox.runningProcesses()).toBe(3);
      expect(await sandbox.killAllButInit(5_000)).toBe(true);
      const deadline = Date.now() + 5_000;
      while ((await sandbox.runningProcesses()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await sandbox.runningProcesses()).toBe(0);
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('counts a job that hops from process to process (each forks its successor, then exits) as running in every read: the kernel counts its jobs', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    try {
      // Thousands of hops a second: each process forks its successor and exits at once, with no exec between.
      await inside(sandbox, `python3 -c 'import os\nwhile os.fork() == 0: pass\nos._exit(0)' >/dev/null 2>&1 &`);
      const counts: number[] = [];
      for (let read = 0; read < 300; read += 1) counts.push(await sandbox.runningProcesses());
      expect(counts.filter((count) => count === 0).length, 'reads that missed the job, of 300').toBe(0);
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
      // Left: nothing of the jobs; the init, with the host-side `unshare` above it (and its timer), in its own group.
      expect(await groupProcesses(sandbox, 'jobs')).toEqual([]);
      expect(await groupProcesses(sandbox, 'init')).toContain(sandbox.record.pid);
      expect(await sandbox.isRunning()).toBe(true);
      expect(await inside(sandbox, 'echo still')).toBe('still\n');
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('pauses every job while frozen (a writer does not advance) and lets them go on once thawed', async () => {
    const started = await spec();
    const sandbox = await NamespaceSandbox.start(started);
    const count = () => countWritten(started);
    try {
      expect(sandbox.freezable).toBe(true);
      await inside(sandbox, 'i=0; while :; do i=$((i+1)); echo $i > /work/count; done >/dev/null 2>&1 &');
      await waitFor(async () => Number(await count()) > 100);
      const seen = await sandbox.whileJobsFrozen(async () => {
        const first = await count();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return [first, await count()];
      });
      expect(seen[1]).toBe(seen[0]);
      await waitFor(async () => Number(await count()) > Number(seen[0]) + 100);
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('thaws the jobs of a sandbox adopted again (its daemon was killed while they were frozen)', async () => {
    const started = await spec();
    const sandbox = await NamespaceSandbox.start(started);
    const count = () => countWritten(started);
    try {
      await inside(sandbox, 'i=0; while :; do i=$((i+1)); echo $i > /work/count; done >/dev/null 2>&1 &');
      await waitFor(async () => Number(await count()) > 100);
      // As a daemon killed inside whileJobsFrozen leaves them: frozen, and nobody to thaw them.
      await freezeByHand(sandbox);
      const frozenAt = await count();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await count()).toBe(frozenAt);

      const adopted = await NamespaceSandbox.adopt(sandbox.record);
      expect(adopted).toBeDefined();
      await waitFor(async () => (await count()) !== frozenAt);
    } finally {
      await sandbox.kill(5_000);
    }
  });

  it('is killed whole while its jobs are frozen (a frozen task dies only once thawed)', async () => {
    const sandbox = await NamespaceSandbox.start(await spec());
    await inside(sandbox, 'sleep 60 >/dev/null 2>&1 & sleep 60 >/dev/null 2>&1 &');
    await freezeByHand(sandbox);
    expect(await sandbox.kill(5_000)).toBe(true);
    const { name, places } = sandbox.record.cgroup!;
    for (const place of places) expect(await readdir(place.directory)).not.toContain(name);
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
