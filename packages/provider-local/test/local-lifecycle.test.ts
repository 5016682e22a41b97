import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackendGoneError, RuntimectlError } from '@runtimectl/core';
import { DEEP_TREE, lifecycleTests } from '@runtimectl/testkit';
import { createLocalProvider } from '../src/index';
import { createBackend, localProvider, newBackendId, text, useTemporaryDirectories, utf8, workspacesIn } from './local-fixture';

const exists = (path: string) => stat(path).then(
  () => true,
  () => false,
);

describe('local provider lifecycle', () => {
  const temporary = useTemporaryDirectories();

  it('gives each backend a workspace directory named after its backend id', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    expect(backend.resource).toEqual({ workspace: request.backendId });
    expect(await workspacesIn(root)).toEqual([request.backendId]);
    await backend.writeBytes('hello.txt', utf8('hi'));
    expect(await readdir(join(root, request.backendId))).toEqual(['hello.txt']);
  });

  it('creates the root directory when it does not exist yet', async () => {
    const parent = await temporary('parent');
    const provider = createLocalProvider({ root: join(parent, 'not', 'yet') });
    const { backend } = await createBackend(provider);
    expect((await stat(backend.workspaceRoot)).isDirectory()).toBe(true);
  });

  it('makes its root and its bookkeeping beside the workspaces owner-only; a workspace keeps its own mode', async () => {
    const parent = await temporary('parent');
    const root = join(parent, 'state', 'workspaces');
    const provider = createLocalProvider({ root, keepWorkspaces: true });
    const { backend, request } = await createBackend(provider);
    await provider.release(request);
    const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);
    expect(await modeOf(join(parent, 'state'))).toBe('700');
    expect(await modeOf(root)).toBe('700');
    for (const bookkeeping of ['.owners', '.released']) expect(await modeOf(join(root, bookkeeping)), bookkeeping).toBe('700');
    expect(await modeOf(join(root, '.released', request.backendId))).toBe('600');
    expect(await modeOf(backend.workspaceRoot)).toBe((0o777 & ~process.umask()).toString(8));
  });

  it('release removes a workspace whose commands built a tree deeper than PATH_MAX', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    const made = await backend.exec({ command: DEEP_TREE.buildCommand, maxOutputBytes: 4096 });
    expect(made.exitCode).toBe(0);
    await provider.release(request);
    expect(await workspacesIn(root)).toEqual([]);
  });

  it('release removes the workspace directory by default', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    await backend.writeBytes('deep/tree/file.txt', utf8('x'));
    await provider.release(request);
    expect(await workspacesIn(root)).toEqual([]);
  });

  it('with keepWorkspaces, release keeps the files but the backend cannot be attached again', async () => {
    const { provider, root } = await localProvider(temporary, { keepWorkspaces: true });
    const { backend, request } = await createBackend(provider);
    await backend.writeBytes('result.txt', utf8('inspect me'));
    await provider.release(request);
    await provider.release(request);
    expect(await readFile(join(root, request.backendId, 'result.txt'), 'utf8')).toBe('inspect me');
    const error = await provider.attach(request).catch((caught: unknown) => caught);
    expect(BackendGoneError.isInstance(error)).toBe(true);
  });

  it('a new provider over the same root attaches to a workspace created before the restart', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    await backend.writeBytes('state.txt', utf8('survives restarts'));
    const restarted = createLocalProvider({ root });
    const attached = await restarted.attach(JSON.parse(JSON.stringify(request)));
    expect(text(await attached.readBytes('state.txt'))).toBe('survives restarts');
  });

  it('attach fails with BackendGoneError when the workspace directory vanished', async () => {
    const { provider, root } = await localProvider(temporary);
    const { request } = await createBackend(provider);
    await rm(join(root, request.backendId), { recursive: true });
    const error = await provider.attach(request).catch((caught: unknown) => caught);
    expect(BackendGoneError.isInstance(error)).toBe(true);
  });

  it('operations on a backend whose workspace vanished fail with BackendGoneError', async () => {
    const { provider, root } = await localProvider(temporary);
    const { backend, request } = await createBackend(provider);
    await rm(join(root, request.backendId), { recursive: true });
    for (const operation of [
      () => backend.readBytes('a.txt'),
      () => backend.writeBytes('a.txt', utf8('x')),
      () => backend.stat('a.txt'),
      () => backend.exec({ command: 'true', maxOutputBytes: 10 }),
    ]) {
      const error = await operation().catch((caught: unknown) => caught);
      expect(BackendGoneError.isInstance(error), String(error)).toBe(true);
    }
  });

  it('a resource naming a path outside the root is ignored by release and refused by attach', async () => {
    const { provider, root } = await localProvider(temporary);
    const victim = await mkdtemp(join(tmpdir(), 'runtimectl-local-victim-'));
    try {
      await writeFile(join(victim, 'keep.txt'), 'must survive');
      for (const workspace of ['..', `../${victim}`, victim, '../../etc', '.released', '']) {
        await provider.release({ backendId: 'bkd_x', resource: { workspace } });
        const error = await provider.attach({ backendId: 'bkd_x', resource: { workspace } }).catch((caught: unknown) => caught);
        expect(RuntimectlError.isInstance(error) && BackendGoneError.isInstance(error)).toBe(true);
      }
      expect(await exists(join(victim, 'keep.txt'))).toBe(true);
      expect(await exists(root)).toBe(true);
    } finally {
      await rm(victim, { recursive: true, force: true });
    }
  });

  it('lists live workspaces by installation, also for a provider started after a crash', async () => {
    const { provider, root } = await localProvider(temporary);
    const backendId = newBackendId();
    const backend = await provider.create({ backendId, runtimeId: 'r', options: {}, labels: { runtimectl_installation: 'mine', runtimectl_backend_id: backendId } });
    const restarted = createLocalProvider({ root });
    expect(await restarted.listOwnedResources('mine')).toEqual({ backends: [{ backendId, resource: backend.resource }], snapshots: [] });
    expect(await restarted.listOwnedResources('someone-else')).toEqual({ backends: [], snapshots: [] });
    await restarted.release({ backendId, resource: backend.resource });
    expect(await provider.listOwnedResources('mine')).toEqual({ backends: [], snapshots: [] });
  });

  it('create refuses a backend id whose workspace already exists', async () => {
    const { provider } = await localProvider(temporary);
    const { request } = await createBackend(provider);
    const error = await createBackend(provider, request.backendId).catch((caught: unknown) => caught);
    expect((error as RuntimectlError).code).toBe('provider_error');
  });
});

// The lifecycle area of the conformance suite holds with kept workspaces too: released means gone.
describe('local provider with keepWorkspaces', () => {
  lifecycleTests({
    name: 'local (keepWorkspaces)',
    createProvider: async () => {
      const root = await mkdtemp(join(tmpdir(), 'runtimectl-local-kept-'));
      return { provider: createLocalProvider({ root, keepWorkspaces: true }), cleanup: () => rm(root, { recursive: true, force: true }) };
    },
  });
});
