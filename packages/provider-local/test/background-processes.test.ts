import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirtyTrackingTests } from '@runtimectl/testkit';
import { createLocalProvider } from '../src/index';
import { createBackend, eventually, localProvider, sleepersOf, uniqueSleep, useTemporaryDirectories } from './local-fixture';

const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 };

// Issue 39: what `backgroundProcesses` counts, so core records a runtime clean only when nothing
// its commands started can still write. Isolation "auto" picks namespaces here (as the other
// isolation tests assume): the count is the workspace sandbox's PID namespace.
describe('local provider: background processes', () => {
  const temporary = useTemporaryDirectories();

  it('counts 0 before any command, without starting the workspace sandbox', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    expect(await backend.backgroundProcesses!()).toBe(0);
    const recorded = await readdir(join(root, '.ns')).catch(() => []);
    expect(recorded.filter((name) => name.endsWith('.json')), 'no sandbox was started (none recorded)').toEqual([]);
  });

  it('counts the jobs commands left running — setsid ones too — and 0 once they ended', async () => {
    const { provider } = await localProvider(temporary);
    const { backend } = await createBackend(provider);
    await backend.exec({ ...exec, command: 'echo done' });
    expect(await backend.backgroundProcesses!(), 'a command that ended leaves nothing').toBe(0);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `sleep ${seconds} >/dev/null 2>&1 & echo $! > jobs.pid; setsid sleep ${seconds} </dev/null >/dev/null 2>&1 & echo $! >> jobs.pid` });
    expect(await backend.backgroundProcesses!()).toBe(2);
    await backend.exec({ ...exec, command: 'kill -9 $(cat jobs.pid)' });
    expect(await eventually(async () => (await backend.backgroundProcesses!()) === 0, 5_000)).toBe(true);
  });

  it('after a daemon restart, counts the jobs in the sandbox the old daemon recorded', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const seconds = uniqueSleep();
    await backend.exec({ ...exec, command: `sleep ${seconds} >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    const restarted = createLocalProvider({ root });
    const attached = await restarted.attach(request);
    expect(await attached.backgroundProcesses!()).toBe(1);
    await restarted.release(request);
  });

  it('with isolation "none" cannot tell (host processes leave their group with setsid): null', async () => {
    const { provider } = await localProvider(temporary, { isolation: 'none' });
    const { backend } = await createBackend(provider);
    expect(await backend.backgroundProcesses!()).toBeNull();
  });
});

// Without a count core never records a runtime clean: the dirty-tracking area proves it over
// isolation "none" (its reuse tests skip, saying why, and no checkpoint reuses a snapshot).
dirtyTrackingTests({
  name: 'local (isolation none)',
  capabilities: { posixShell: true },
  createProvider: async () => {
    const root = await mkdtemp(join(tmpdir(), 'runtimectl-local-none-'));
    return { provider: createLocalProvider({ root, isolation: 'none' }), cleanup: () => rm(root, { recursive: true, force: true }) };
  },
});
