import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCgroupHost } from '@runtimectl/namespace-sandbox';
import { createBackend, eventually, localProvider, text, useTemporaryDirectories } from './local-fixture';

const cgroups = await findCgroupHost();
const MiB = 1024 * 1024;
const limits = { memoryBytes: 96 * MiB, pids: 64, cpuCores: 1 };
/** A fork bomb whose first shell waits for it (the command runs until stopped). */
const FORK_BOMB = 'bomb() { bomb | bomb; }; bomb';
/** One that leaves everything in the background (the command itself returns at once). */
const BACKGROUND_FORK_BOMB = 'bomb() { bomb | bomb & }; bomb';

/** Host pids of the processes commands left in the cgroup of workspace `name`'s sandbox (its jobs group; from its holder record). */
async function sandboxProcesses(root: string, name: string): Promise<number[]> {
  const record = JSON.parse(await readFile(join(root, '.ns', `${name}.json`), 'utf8')) as { cgroup: { name: string; places: { controller: string; directory: string }[] } };
  const pids = record.cgroup.places.find((place) => place.controller === 'pids')!;
  const text = await readFile(join(pids.directory, record.cgroup.name, 'jobs', 'cgroup.procs'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

// Issue 31, finding 4: a runtime had no resource limits — a fork bomb or a memory hog in one took
// the machine from every other runtime and the daemon.
describe.skipIf(!cgroups.places)('resource limits of a workspace\'s commands', () => {
  const temporary = useTemporaryDirectories();

  it('a fork bomb is bounded by the process limit, stopped and reported, while another runtime\'s exec is still answered', async () => {
    const { provider, root } = await localProvider(temporary, { limits });
    expect(await provider.isolation()).toMatchObject({ limits });
    const { backend: bomber, request } = await createBackend(provider);
    const { backend: innocent } = await createBackend(provider);
    await innocent.exec({ command: 'true', maxOutputBytes: 1024, timeoutMs: 20_000 });
    const bombing = bomber.exec({ command: FORK_BOMB, maxOutputBytes: 64 * 1024, timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const began = Date.now();
    const answer = await innocent.exec({ command: 'echo still here', maxOutputBytes: 1024, timeoutMs: 20_000 });
    const innocentMs = Date.now() - began;
    expect(text(answer.stdout)).toBe('still here\n');
    expect(innocentMs).toBeLessThan(10_000);
    const result = await bombing;
    expect(result.exitCode === null || result.exitCode !== 0).toBe(true);
    expect(text(result.stderr)).toContain(`runtimectl: process limit of ${limits.pids} reached`);
    expect((await sandboxProcesses(root, request.backendId)).length).toBeLessThanOrEqual(limits.pids);
    expect(await eventually(async () => (await sandboxProcesses(root, request.backendId)).length === 0, 10_000)).toBe(true);
    const after = await bomber.exec({ command: 'echo recovered', maxOutputBytes: 1024, timeoutMs: 20_000 });
    expect(text(after.stdout)).toBe('recovered\n');
  });

  it('a fork bomb left in the background is stopped too, and the runtime\'s next command runs', async () => {
    const { provider, root } = await localProvider(temporary, { limits });
    const { backend, request } = await createBackend(provider);
    await backend.exec({ command: BACKGROUND_FORK_BOMB, maxOutputBytes: 64 * 1024, timeoutMs: 30_000 });
    expect(await eventually(async () => (await sandboxProcesses(root, request.backendId)).length === 0, 10_000)).toBe(true);
    expect(text((await backend.exec({ command: 'echo recovered', maxOutputBytes: 1024, timeoutMs: 20_000 })).stdout)).toBe('recovered\n');
  });

  it('an allocation over the memory limit is killed and reported, and the next command runs', async () => {
    const { provider } = await localProvider(temporary, { limits });
    const { backend } = await createBackend(provider);
    const hog = await backend.exec({ command: `python3 -c "b = bytearray(${256 * MiB}); print('survived')"`, maxOutputBytes: 64 * 1024, timeoutMs: 30_000 });
    expect(text(hog.stdout)).not.toContain('survived');
    expect(hog.exitCode === null || hog.exitCode === 137).toBe(true);
    expect(text(hog.stderr)).toContain(`runtimectl: memory limit of ${limits.memoryBytes} bytes reached`);
    expect(text((await backend.exec({ command: 'echo next', maxOutputBytes: 1024, timeoutMs: 20_000 })).stdout)).toBe('next\n');
  });

  it('a background job is held to the limits too: its allocation over the memory limit is killed', async () => {
    const { provider } = await localProvider(temporary, { limits });
    const { backend } = await createBackend(provider);
    await backend.exec({ command: `(python3 -c "import time; b = bytearray(${256 * MiB}); time.sleep(60)"; echo "status $?" > hog.status) >/dev/null 2>&1 &`, maxOutputBytes: 1024, timeoutMs: 20_000 });
    expect(await eventually(async () => text((await backend.exec({ command: 'cat hog.status 2>/dev/null', maxOutputBytes: 1024, timeoutMs: 20_000 })).stdout) === 'status 137\n', 15_000)).toBe(true);
  });

  it('a busy loop gets at most its CPU limit', async () => {
    const { provider } = await localProvider(temporary, { limits: { ...limits, cpuCores: 0.25 } });
    const { backend } = await createBackend(provider);
    const script = 'import os, time\nt = time.time()\nwhile time.time() - t < 2: pass\nprint(os.times().user + os.times().system)';
    const result = await backend.exec({ command: `python3 -c '${script}'`, maxOutputBytes: 1024, timeoutMs: 20_000 });
    // 0.25 of a core for 2 s of wall time is 0.5 s of CPU; scheduling slack allowed, a whole core (2 s) is not.
    expect(Number(text(result.stdout))).toBeLessThan(1);
  });

  it('a runtime\'s sandbox cgroup is removed on release', async () => {
    const { provider, root } = await localProvider(temporary, { limits });
    const { backend, request } = await createBackend(provider);
    await backend.exec({ command: 'sleep 60 >/dev/null 2>&1 &', maxOutputBytes: 1024, timeoutMs: 20_000 });
    const record = JSON.parse(await readFile(join(root, '.ns', `${request.backendId}.json`), 'utf8')) as { cgroup: { name: string; places: { directory: string }[] } };
    await provider.release(request);
    for (const place of record.cgroup.places) expect(await readdir(place.directory)).not.toContain(record.cgroup.name);
  });
});
