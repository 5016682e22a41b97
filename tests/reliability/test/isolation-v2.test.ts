import { execFile } from 'node:child_process';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFigures } from '../support/figures';
import { Api } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { checkoutChild, checkpoint, closeAll, openRuntime } from '../support/runtime-steps';

// Issue 31: isolation v2 against a real runtimed (fs, the default provider, default isolation,
// small limits), as a hostile runtime would try it. Every way out counts as an escape — root on
// the host through a setuid file (in the workspace, or brought back by a checkout), a root-owned
// file, the daemon's loopback API, a port appearing on the host, the host's System V IPC — and
// the count must be 0. Then what a runaway runtime costs an innocent one: exec latency of an
// innocent runtime before, during a fork bomb and during a memory hog in another runtime.
const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const MiB = 1024 * 1024;
const LIMITS = { memory: 256 * MiB, pids: 256 };

let daemon: RuntimedProcess;
let api: Api;
const opened: string[] = [];
const figures: Record<string, unknown> = {};

interface ExecReply {
  exit_code: number | null;
  timed_out: boolean;
  stdout_base64: string;
  stderr_base64: string;
}
const decode = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

async function exec(runtimeId: string, command: string, timeoutMs = 20_000): Promise<{ exitCode: number | null; stdout: string; stderr: string; ms: number }> {
  const began = performance.now();
  const reply = await api.ok<ExecReply>('/api/v1/runtimes/exec', { runtime_id: runtimeId, command, timeout_ms: timeoutMs }, { timeoutMs: timeoutMs + 30_000 });
  return { exitCode: reply.exit_code, stdout: decode(reply.stdout_base64), stderr: decode(reply.stderr_base64), ms: performance.now() - began };
}

async function open(): Promise<string> {
  const id = await openRuntime(api);
  opened.push(id);
  return id;
}

/** The host directory of an fs runtime's workspace: its only workspace under the fs root made after `before`. */
async function newestWorkspace(before: Set<string>): Promise<string> {
  const root = join(daemon.stateDir, 'fs', 'workspaces');
  const made = (await readdir(root)).filter((name) => !name.startsWith('.') && !before.has(name));
  expect(made).toHaveLength(1);
  return join(root, made[0]!);
}

const workspaceNames = async () => new Set(await readdir(join(daemon.stateDir, 'fs', 'workspaces')).catch(() => []));

/** Medians and maxima of latencies, in whole milliseconds. */
function spread(samples: number[]): { samples: number; p50Ms: number; maxMs: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples: sorted.length, p50Ms: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0), maxMs: Math.round(sorted.at(-1) ?? 0) };
}

/** Runs `echo` in `runtimeId` back to back while `during` lasts; the latency of each. */
async function innocentLatencies(runtimeId: string, during: Promise<unknown>): Promise<number[]> {
  let done = false;
  void during.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) latencies.push((await exec(runtimeId, 'echo innocent')).ms);
  return latencies;
}

beforeAll(async () => {
  daemon = await startRuntimed({
    env: {
      RUNTIMECTL_PROVIDERS_FS_MEMORY_LIMIT_BYTES: String(LIMITS.memory),
      RUNTIMECTL_PROVIDERS_FS_PIDS_LIMIT: String(LIMITS.pids),
    },
    startTimeoutMs: 60_000,
  });
  api = new Api(daemon.url);
  figures.isolation = /fs isolation: ([^·]*)/.exec(daemon.banner)?.[1]?.trim();
});

afterAll(async () => {
  writeFigures('isolation-v2', figures);
  if (api) await closeAll(api, opened).catch(() => undefined);
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

describe('escapes from a runtime (isolation v2)', () => {
  it('is 0: no root through setuid files or a checkout, no root-owned file, no loopback API, no port or IPC on the host', async () => {
    const escapes: string[] = [];
    const attempts: string[] = [];
    const attempt = async (name: string, escaped: () => Promise<boolean>) => {
      attempts.push(name);
      if (await escaped()) escapes.push(name);
    };
    const before = await workspaceNames();
    const runtime = await open();
    const workspace = await newestWorkspace(before);
    await exec(runtime, 'cp /bin/dash s && chmod 6755 s && echo made > made.txt');

    if (asRoot) {
      await attempt('setuid shell in the workspace run by nobody on the host is root', async () => {
        for (let at = workspace; at !== '/'; at = dirname(at)) await chmod(at, (await lstat(at)).mode | 0o711);
        const { stdout } = await execFileAsync('su', ['nobody', '-s', '/bin/sh', '-c', `${join(workspace, 's')} -p -c 'id -u'`]).catch(() => ({ stdout: 'refused' }));
        return stdout.trim() === '0';
      });
    }
    await attempt('a file a command made belongs to root on the host', async () => (await lstat(join(workspace, 'made.txt'))).uid === 0 && asRoot);

    const beforeChild = await workspaceNames();
    const child = await checkoutChild(api, await checkpoint(api, runtime));
    opened.push(child);
    const childWorkspace = await newestWorkspace(beforeChild);
    await attempt('a checkout brings back a setuid or setgid bit, or a root-owned file', async () => {
      const restored = await lstat(join(childWorkspace, 's'));
      return (restored.mode & 0o6000) !== 0 || (asRoot && restored.uid === 0);
    });

    const port = new URL(daemon.url).port;
    await attempt("a command reaches the daemon's API on the host's loopback", async () => {
      const reached = await exec(runtime, `timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}; printf "GET /api/v1/health HTTP/1.0\\r\\n\\r\\n" >&3; cat <&3' 2>/dev/null | head -n 1`);
      return reached.stdout.includes('HTTP/');
    });
    await attempt("a port a command listens on appears on the host's loopback", async () => {
      await exec(runtime, 'python3 -m http.server 18931 --bind 0.0.0.0 >/dev/null 2>&1 & sleep 1');
      return fetch('http://127.0.0.1:18931/', { signal: AbortSignal.timeout(2_000) }).then(
        () => true,
        () => false,
      );
    });
    await attempt("a command sees or removes a System V message queue of the host's", async () => {
      const { stdout } = await execFileAsync('ipcmk', ['-Q']);
      const queue = /(\d+)/.exec(stdout)![1]!;
      try {
        await exec(runtime, `ipcrm -q ${queue} 2>/dev/null`);
        return (await execFileAsync('ipcs', ['-q', '-i', queue]).then(() => false, () => true)) || (await exec(runtime, 'ipcs -q')).stdout.includes(queue);
      } finally {
        await execFileAsync('ipcrm', ['-q', queue]).catch(() => undefined);
      }
    });
    await attempt("an exec's own env (PATH) makes the host run a program of the runtime's before entering the sandbox", async () => {
      // The runtime leaves an `nsenter` in its workspace, then asks for a PATH through it: the
      // host side of the launch (a shell, nsenter) must never look anything up in what a caller sent.
      await exec(runtime, `printf '#!/bin/sh\\ntouch "$0.ran"\\nexec /usr/bin/nsenter "$@"\\n' > nsenter && chmod 755 nsenter`);
      await api.ok<ExecReply>('/api/v1/runtimes/exec', { runtime_id: runtime, command: 'true', env: { PATH: `${workspace}:/usr/sbin:/usr/bin:/sbin:/bin`, LD_PRELOAD: join(workspace, 'missing.so') } });
      return lstat(join(workspace, 'nsenter.ran')).then(() => true, () => false);
    });
    const seen = await exec(runtime, "pwd; cat /proc/self/cgroup; awk '{ print $5 }' /proc/self/mountinfo");
    await attempt('a command sees the state directory or its backend in pwd, mount points or cgroup', async () => seen.stdout.includes(daemon.stateDir) || seen.stdout.includes(workspace.split('/').at(-1)!));

    Object.assign(figures, { escapes: escapes.length, attempts: attempts.length, attempted: attempts, escaped: escapes, asRoot });
    expect(escapes).toEqual([]);
  });
});

describe('an innocent runtime while another runs away', () => {
  it('answers during a fork bomb and a memory hog; the runaways are stopped and say why', async () => {
    const innocent = await open();
    const runaway = await open();
    await exec(innocent, 'true');
    await exec(runaway, 'true');
    const baseline: number[] = [];
    for (let round = 0; round < 20; round += 1) baseline.push((await exec(innocent, 'echo innocent')).ms);

    const bombStarted = performance.now();
    const bomb = exec(runaway, 'bomb() { bomb | bomb; }; bomb', 30_000);
    const duringBomb = await innocentLatencies(innocent, bomb);
    const bombResult = await bomb;
    const bombMs = performance.now() - bombStarted;
    expect(bombResult.stderr).toContain(`runtimectl: process limit of ${LIMITS.pids} reached`);

    const hogStarted = performance.now();
    const hog = exec(runaway, `end=$(($(date +%s) + 5)); n=0; while [ "$(date +%s)" -lt "$end" ]; do python3 -c "b = bytearray(${2 * LIMITS.memory})" 2>/dev/null; n=$((n + 1)); done; echo "allocations $n"`, 30_000);
    const duringHog = await innocentLatencies(innocent, hog);
    const hogResult = await hog;
    const hogMs = performance.now() - hogStarted;
    expect(hogResult.stderr).toContain(`runtimectl: memory limit of ${LIMITS.memory} bytes reached`);

    Object.assign(figures, {
      limits: { memoryBytes: LIMITS.memory, pids: LIMITS.pids },
      innocent: { baseline: spread(baseline), duringForkBomb: spread(duringBomb), duringMemoryHog: spread(duringHog) },
      forkBomb: { stoppedAfterMs: Math.round(bombMs), exitCode: bombResult.exitCode, note: bombResult.stderr.trim().split('\n').at(-1) },
      memoryHog: { ranMs: Math.round(hogMs), allocations: /allocations (\d+)/.exec(hogResult.stdout)?.[1], note: hogResult.stderr.trim().split('\n').at(-1) },
      daemonAlive: daemon.alive(),
    });
    expect(daemon.alive()).toBe(true);
    expect(duringBomb.length).toBeGreaterThan(0);
    expect(duringHog.length).toBeGreaterThan(0);
  });
});
