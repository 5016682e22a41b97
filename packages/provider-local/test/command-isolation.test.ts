import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createLocalProvider } from '../src/index';
import { createBackend, eventually, localProvider, sleepersOf, text, uniqueSleep, useTemporaryDirectories } from './local-fixture';

const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 };

// Commands run in the workspace's own user, mount and PID namespaces (isolation "auto" picks
// them where the machine allows, as it does here): what the daemon can see, they cannot.
describe('local provider command isolation', () => {
  const temporary = useTemporaryDirectories();

  it('a setsid child is gone after release', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `setsid sleep ${seconds} </dev/null >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    await provider.release(request);
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 0, 2_000)).toBe(true);
  });

  it('after a daemon restart, release still kills what commands of the old daemon left running', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `setsid sleep ${seconds} </dev/null >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    const restarted = createLocalProvider({ root });
    await restarted.release(request);
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 0, 2_000)).toBe(true);
  });

  it('after a daemon restart, attach enters the same namespaces: a background job of before is still there', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    await backend.exec({ ...exec, command: 'sleep 300 >/dev/null 2>&1 & echo $! > job.pid' });
    const restarted = createLocalProvider({ root });
    const attached = await restarted.attach(request);
    const result = await attached.exec({ ...exec, command: 'kill -0 "$(cat job.pid)" && echo still-running' });
    expect(text(result.stdout)).toBe('still-running\n');
    await restarted.release(request);
  });

  it("a command sees its workspace and the system's tools, not the provider root or the host's other files", async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    await createBackend(provider);
    const result = await backend.exec({ ...exec, command: `ls -a ${root} 2>/dev/null; test -x /bin/sh && echo tools; ls /work /root /var 2>/dev/null | wc -l; ls -a /home/user` });
    // The provider root is not there at all: the workspace is at its own path, alone in /home/user.
    expect(text(result.stdout).split('\n').filter((line) => line && line !== '.' && line !== '..')).toEqual(['tools', '0', 'workspace']);
    expect((await readdir(root)).filter((name) => !name.startsWith('.'))).toHaveLength(2);
  });

  it('with network none (or false, as before modes) a command has only a loopback interface', async () => {
    const { provider } = await localProvider(temporary, { network: false });
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: "awk 'NR > 2 { sub(\":\", \"\", $1); print $1 }' /proc/net/dev" });
    expect(text(result.stdout)).toBe('lo\n');
    expect(await provider.isolation()).toMatchObject({ mode: 'namespace', network: 'none' });
  });

  it('with isolation "none" commands run as host processes, and the provider says so', async () => {
    const { provider, root } = await localProvider(temporary, { isolation: 'none' });
    const { backend } = await createBackend(provider);
    const result = await backend.exec({ ...exec, command: `test -d ${root} && echo host-visible; echo $PPID` });
    const [visible, ppid] = text(result.stdout).trim().split('\n');
    expect(visible).toBe('host-visible');
    expect(Number(ppid)).toBe(process.pid);
    expect(await provider.isolation()).toEqual({ mode: 'none', network: 'host', reason: 'isolation = "none" in the settings' });
  });

  it('reports the isolation in force: namespace, its workspace path, and a network other than the host\'s by default', async () => {
    const { provider } = await localProvider(temporary);
    const inForce = await provider.isolation();
    expect(inForce).toMatchObject({ mode: 'namespace', workspacePath: '/home/user/workspace' });
    expect(['egress', 'none']).toContain(inForce.network);
  });
});
