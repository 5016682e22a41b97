import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HolderFile, NamespaceSandbox, probeNamespaceSandbox, type SandboxSpec } from '../src/index';
import { countByHostScan } from '../src/sandbox-processes';
import { unshareArgs } from '../src/sandbox-spec';

const scratch = await mkdtemp(join(tmpdir(), 'namespace-sandbox-test-'));
const probe = await probeNamespaceSandbox(join(scratch, 'probe'), { network: 'host' });
afterAll(() => rm(scratch, { recursive: true, force: true }));

function run(file: string, args: string[], env: Record<string, string> = { PATH: '/usr/bin:/bin' }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error.code as number) ?? -1) : 0, stdout, stderr });
    });
  });
}

const inside = (sandbox: NamespaceSandbox, cwd: string, script: string, environment: Record<string, string> = { PATH: '/usr/bin:/bin' }) => {
  const { file, args, env } = sandbox.launch(cwd, ['/bin/sh', '-c', script], environment);
  return run(file, args, env);
};

/** Host pids whose command line contains `marker`. */
async function hostPidsWith(marker: string): Promise<number[]> {
  const { stdout } = await run('pgrep', ['-f', marker]);
  return stdout.split('\n').filter(Boolean).map(Number);
}

describe('the namespace probe', () => {
  it('reports whether sandboxes work here, with the reason when they do not', () => {
    if (!probe.available) expect(probe.reason).toMatch(/\S/);
    else expect(probe).toEqual({ available: true });
  });
});

describe.skipIf(!probe.available)('a namespace sandbox', () => {
  let workspace: string;
  let spec: SandboxSpec;
  let sandbox: NamespaceSandbox;

  beforeAll(async () => {
    const base = await mkdtemp(join(scratch, 'case-'));
    workspace = join(base, 'workspace');
    await mkdir(workspace);
    await mkdir(join(base, 'root'));
    await writeFile(join(workspace, 'mine.txt'), 'mine');
    await writeFile(join(base, 'state.db'), 'daemon secret');
    spec = { rootMountPoint: join(base, 'root'), binds: [{ source: workspace, target: workspace }], network: 'host' };
    sandbox = await NamespaceSandbox.start(spec);
  });
  afterAll(() => sandbox?.kill(5_000));

  it('shows the bound directory and the system tools, but no other host file', async () => {
    const result = await inside(sandbox, workspace, 'cat mine.txt; echo; ls /usr/bin/env >/dev/null && echo tools; cat ../state.db; ls /work /root /home 2>/dev/null | wc -l; ls /dev/fstab /proc/fstab /dev/shm/fstab 2>/dev/null | wc -l');
    expect(result.stdout).toBe('mine\ntools\n0\n0\n');
  });

  it('hides the caller: no /proc entry for it, PPID 0, and PID 1 has a minimal environment', async () => {
    const result = await inside(sandbox, workspace, `test -e /proc/${process.pid} && echo visible; echo ppid=$PPID; tr '\\0' '\\n' < /proc/1/environ`);
    expect(result.stdout).toBe('ppid=0\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n');
  });

  it('keeps the system and the root read-only, the bound directory and a private /tmp writable', async () => {
    const result = await inside(sandbox, workspace, 'touch /usr/x 2>/dev/null || echo usr-ro; touch /etc/passwd 2>/dev/null || echo etc-ro; mkdir /x 2>/dev/null || echo root-ro; echo w > written.txt && echo t > /tmp/t && cat /tmp/t');
    expect(result.stdout).toBe('usr-ro\netc-ro\nroot-ro\nt\n');
    expect(await readFile(join(workspace, 'written.txt'), 'utf8')).toBe('w\n');
  });

  it('root inside cannot remount the system read-write, unmount what hides the host, or write host-wide sysctls', async () => {
    const script = [
      'mount -o remount,bind,rw /usr 2>/dev/null && echo usr-remounted',
      'mount -o remount,rw / 2>/dev/null && echo root-remounted',
      'umount -l /usr 2>/dev/null && echo usr-unmounted',
      'v=$(cat /proc/sys/vm/swappiness); (echo "$v" > /proc/sys/vm/swappiness) 2>/dev/null && echo sysctl-written',
      'test -s /proc/kcore && echo kcore',
      'echo done',
    ].join('; ');
    expect((await inside(sandbox, workspace, script)).stdout).toBe('done\n');
  });

  it('reads a boot id of its own, not the host\'s, that no command can change, and a sandbox started again reads a new one', async () => {
    const hostBootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    const read = 'cat /proc/sys/kernel/random/boot_id; (echo x > /proc/sys/kernel/random/boot_id) 2>/dev/null && echo written; umount /proc/sys/kernel/random/boot_id 2>/dev/null && echo unmounted; cat /proc/sys/kernel/random/boot_id';
    const first = (await inside(sandbox, workspace, read)).stdout.split('\n');
    expect(first[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first[0]).not.toBe(hostBootId);
    expect(first).toEqual([first[0], first[0], '']);
    const again = await NamespaceSandbox.start(spec);
    try {
      const second = (await inside(again, workspace, 'cat /proc/sys/kernel/random/boot_id')).stdout.trim();
      expect(second).not.toBe(first[0]);
      expect(second).not.toBe(hostBootId);
    } finally {
      await again.kill(5_000);
    }
  });

  it('shows a read-only bind that root inside can neither write nor remount writable, beside a writable one', async () => {
    const base = await mkdtemp(join(scratch, 'read-only-'));
    const shared = join(base, 'shared');
    await mkdir(shared);
    await writeFile(join(shared, 'tool'), 'shared tool');
    await mkdir(join(base, 'root'));
    const withShared = await NamespaceSandbox.start({ ...spec, rootMountPoint: join(base, 'root'), binds: [...spec.binds, { source: shared, target: '/opt/shared', readOnly: true }] });
    try {
      const script = [
        'cat /opt/shared/tool; echo',
        '(echo x > /opt/shared/tool) 2>/dev/null && echo written',
        'touch /opt/shared/new 2>/dev/null && echo created',
        'mount -o remount,bind,rw /opt/shared 2>/dev/null && echo remounted',
        'umount /opt/shared 2>/dev/null && echo unmounted',
        'echo w > bound-still-writable.txt && echo workspace-writable',
      ].join('; ');
      expect((await inside(withShared, workspace, script)).stdout).toBe('shared tool\nworkspace-writable\n');
      expect(await readFile(join(shared, 'tool'), 'utf8')).toBe('shared tool');
    } finally {
      await withShared.kill(5_000);
    }
  });

  it('is ready only once its init is in the locked nested namespaces: a command entering at once cannot remount the system', async () => {
    // `ready` used to be printed before the init moved into the nested user and mount namespaces,
    // so a command entering at once could land in the outer ones (where root may remount /usr
    // read-write) or in a user namespace whose id maps were not yet written (`setgid failed`).
    for (let start = 0; start < 6; start += 1) {
      const fresh = await NamespaceSandbox.start(spec);
      try {
        const nsAtReady = await readlink(`/proc/${fresh.record.pid}/ns/user`);
        const result = await inside(fresh, workspace, 'mount -o remount,bind,rw /usr 2>/dev/null && echo usr-remounted; echo entered');
        expect(result).toMatchObject({ code: 0, stdout: 'entered\n' });
        expect(await readlink(`/proc/${fresh.record.pid}/ns/user`)).toBe(nsAtReady);
      } finally {
        await fresh.kill(5_000);
      }
    }
  });

  it('is built by a handful of processes: the init\'s first child gets a PID below 30 in the new PID namespace', async () => {
    // PIDs in a new PID namespace are handed out in order, so the first process the init forks
    // counts every process the setup ran before it (each `mount`, `mkdir`, `ln` is one).
    const out = join(workspace, 'first-child.pid');
    const init = ['/bin/sh', '-c', 'sleep 0 & echo $! > "$1"', 'sandbox-init', out];
    const setup = spawn('unshare', unshareArgs(spec, init, undefined), { stdio: 'ignore' });
    await new Promise((resolve) => setup.on('exit', resolve));
    const firstChild = Number(await readFile(out, 'utf8'));
    expect(firstChild).toBeGreaterThan(1);
    expect(firstChild).toBeLessThan(30);
  });

  it("gives a command exactly its environment, quotes and newlines intact, while the host side never runs with it (no caller's PATH or LD_PRELOAD on the host)", async () => {
    const environment = { PATH: '/nonexistent:/usr/bin:/bin', LD_PRELOAD: '/nonexistent/evil.so', QUOTED: "it's \"$(id)\"\nline two" };
    const launch = sandbox.launch('/', ['/bin/sh', '-c', 'printf "%s|%s|%s" "$PATH" "$LD_PRELOAD" "$QUOTED"; env | grep -c RUNTIMECTL_ || true'], environment);
    expect(Object.keys(launch.env).sort()).toEqual(['PATH', 'RUNTIMECTL_SANDBOX_ENVIRONMENT']);
    expect(launch.env.PATH).not.toContain('/nonexistent');
    expect(JSON.stringify(launch.args)).not.toContain('evil.so');
    const { code, stdout } = await run(launch.file, launch.args, launch.env);
    expect(code).toBe(0);
    expect(stdout).toBe(`${environment.PATH}|${environment.LD_PRELOAD}|${environment.QUOTED}0\n`);
  });

  it('keeps a background job running between commands', async () => {
    await inside(sandbox, workspace, 'sleep 60 >/dev/null 2>&1 & echo $! > bg.pid');
    const result = await inside(sandbox, workspace, 'kill -0 $(cat bg.pid) && echo alive');
    expect(result.stdout).toBe('alive\n');
  });

  it('counts the processes commands left running — background jobs, their children, setsid ones — never its own init, and 0 once they ended', async () => {
    const counted = await NamespaceSandbox.start(spec);
    try {
      // Its init and the init's timer run from the start: nothing of a command yet.
      expect(await counted.runningProcesses()).toBe(0);
      await inside(counted, workspace, 'true');
      expect(await counted.runningProcesses(), 'a command that ended leaves nothing').toBe(0);
      await inside(counted, workspace, '(sleep 60; true) >/dev/null 2>&1 & echo $! > counted.pid; setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! >> counted.pid');
      // The subshell and its sleep, and the setsid sleep; read from the host, every process looked at, the same.
      expect(await counted.runningProcesses()).toBe(3);
      expect(await countByHostScan(counted.record)).toBe(3);
      // The subshell's sleep is its child: killing the subshell leaves it, reparented to PID 1.
      await inside(counted, workspace, 'kill -9 $(cat counted.pid)');
      const orphaned = Date.now() + 5_000;
      while ((await counted.runningProcesses()) > 1 && Date.now() < orphaned) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await counted.runningProcesses(), 'the orphan, now a child of PID 1 but not in its session').toBe(1);
      await inside(counted, workspace, `for pid in /proc/[0-9]*; do [ "$(tr '\\0' ' ' < $pid/cmdline 2>/dev/null)" = 'sleep 60 ' ] && kill -9 \${pid#/proc/}; done; true`);
      const deadline = Date.now() + 5_000;
      while ((await counted.runningProcesses()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await counted.runningProcesses(), 'killed jobs (reaped by the init) count no more').toBe(0);
    } finally {
      await counted.kill(5_000);
    }
    expect(await counted.runningProcesses(), 'a sandbox that is gone runs nothing').toBe(0);
  });

  it('without a cgroup counting its jobs, misses a job that hops from process to process (each forks its successor, then exits) in under one read in ten', async () => {
    // Best effort only: a /proc listing is no snapshot (see countSandboxProcesses). A sandbox with
    // limits counts its jobs in the kernel and never misses it (sandbox-limits.test.ts).
    const hopping = await NamespaceSandbox.start(spec);
    try {
      // Each shell starts the next in the background and exits at once: no process lives long.
      await inside(hopping, workspace, "printf 'sh ./hop.sh >/dev/null 2>&1 &\\n' > hop.sh; sh ./hop.sh");
      const counts: number[] = [];
      for (let read = 0; read < 300; read += 1) counts.push(await hopping.runningProcesses());
      // A single listing missed the job in ~10% of reads; confirmed zeros in about 1% under load.
      expect(counts.filter((count) => count === 0).length, 'reads that missed the job, of 300').toBeLessThan(30);
    } finally {
      await hopping.kill(5_000);
    }
  });

  it('kills everything inside, setsid children too, when the holder is killed', async () => {
    const doomed = await NamespaceSandbox.start(spec);
    const marker = `${40_000 + Math.floor(Math.random() * 9_000)}.5`;
    await inside(doomed, workspace, `setsid sleep ${marker} </dev/null >/dev/null 2>&1 &`);
    expect(await hostPidsWith(`sleep ${marker}`)).toHaveLength(1);
    expect(await doomed.kill(5_000)).toBe(true);
    expect(await hostPidsWith(`sleep ${marker}`)).toEqual([]);
  });

  it('ends by itself, with everything inside, once its first bound directory is deleted on the host', async () => {
    const base = await mkdtemp(join(scratch, 'deleted-'));
    await mkdir(join(base, 'root'));
    await mkdir(join(base, 'gone'));
    const orphaned = await NamespaceSandbox.start({ rootMountPoint: join(base, 'root'), binds: [{ source: join(base, 'gone'), target: join(base, 'gone') }], network: 'host' });
    const marker = `${50_000 + Math.floor(Math.random() * 9_000)}.5`;
    await inside(orphaned, join(base, 'gone'), `sleep ${marker} </dev/null >/dev/null 2>&1 &`);
    await rm(join(base, 'gone'), { recursive: true, force: true });
    const deadline = Date.now() + 6_000;
    while ((await orphaned.isRunning()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await orphaned.isRunning()).toBe(false);
    expect(await hostPidsWith(`sleep ${marker}`)).toEqual([]);
  });

  it('is found again from its record after the caller restarts, and killed through it', async () => {
    const file = new HolderFile(join(scratch, 'holders', 'one.json'));
    const started = await NamespaceSandbox.start(spec);
    await file.write(started.record);
    const record = await file.read();
    const adopted = await NamespaceSandbox.adopt(record!);
    expect((await inside(adopted!, workspace, 'echo again')).stdout).toBe('again\n');
    expect(await NamespaceSandbox.kill(record!, 5_000)).toBe(true);
    expect(await NamespaceSandbox.adopt(record!)).toBeUndefined();
  });

  it('never signals a process whose pid matches a record but whose start time does not', async () => {
    const bystander = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const record = { pid: bystander.pid!, startTime: '1', network: 'host' as const };
      expect(await NamespaceSandbox.adopt(record)).toBeUndefined();
      await NamespaceSandbox.kill(record, 1_000);
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      process.kill(bystander.pid!, 0);
    } finally {
      bystander.kill('SIGKILL');
    }
  });

  it('without network has only a loopback interface, which works', async () => {
    const offline = await NamespaceSandbox.start({ ...spec, network: 'none' });
    try {
      const result = await inside(offline, workspace, "awk 'NR > 2 { sub(\":\", \"\", $1); print $1 }' /proc/net/dev; cat /sys/class/net/lo/operstate 2>/dev/null; ip -o link show lo | grep -c UP");
      expect(result.stdout).toBe('lo\n1\n');
    } finally {
      await offline.kill(5_000);
    }
  });
});

// Finding 3 of issue 31: a command shared the host's System V IPC (and hostname).
describe.skipIf(!probe.available)('a namespace sandbox\'s IPC and UTS namespaces', () => {
  let workspace: string;
  let sandbox: NamespaceSandbox;
  let queue: number;

  beforeAll(async () => {
    const base = await mkdtemp(join(scratch, 'ipc-'));
    workspace = join(base, 'workspace');
    await mkdir(workspace);
    await mkdir(join(base, 'root'));
    sandbox = await NamespaceSandbox.start({ rootMountPoint: join(base, 'root'), binds: [{ source: workspace, target: workspace }], network: 'host' });
    queue = Number(/(\d+)/.exec((await run('ipcmk', ['-Q'])).stdout)![1]);
  });
  afterAll(async () => {
    await run('ipcrm', ['-q', String(queue)]);
    await sandbox?.kill(5_000);
  });

  it('a command neither sees a host message queue nor can remove it', async () => {
    // The queues it sees, one msqid a line (none), then whether removing the host's worked. (A
    // count of ipcs's lines once read as the msqid when the host's queue had a small one.)
    const result = await inside(sandbox, workspace, `ipcs -q | awk 'NR > 3 && NF { print $2 }'; ipcrm -q ${queue} 2>/dev/null && echo removed || echo refused`);
    expect(result.stdout).toBe('refused\n');
    expect((await run('ipcs', ['-q', '-i', String(queue)])).code).toBe(0);
  });

  it('its hostname is the sandbox\'s own, and trying to set it never renames the host', async () => {
    const hostname = (await readFile('/proc/sys/kernel/hostname', 'utf8')).trim();
    const result = await inside(sandbox, workspace, 'uname -n; hostname renamed 2>/dev/null; (echo renamed > /proc/sys/kernel/hostname) 2>/dev/null; true');
    expect(result.stdout).toBe('sandbox\n');
    expect((await readFile('/proc/sys/kernel/hostname', 'utf8')).trim()).toBe(hostname);
  });
});
