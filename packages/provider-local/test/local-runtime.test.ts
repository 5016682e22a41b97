import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimectlError, RuntimeService } from '@runtimectl/core';
import { eventually, localProvider, sleepersOf, uniqueSleep, useTemporaryDirectories, workspacesIn } from './local-fixture';

const base64 = (value: string) => Buffer.from(value).toString('base64');
const decoded = (value: string) => Buffer.from(value, 'base64').toString('utf8');

async function failure(work: Promise<unknown>): Promise<RuntimectlError> {
  const error = await work.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(RuntimectlError.isInstance(error), String(error)).toBe(true);
  return error as RuntimectlError;
}

describe('local runtimes through core', () => {
  const temporary = useTemporaryDirectories();

  async function openLocalRuntime() {
    const { provider, root } = await localProvider(temporary);
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'local' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'work.txt', content_base64: base64('local work') });
    return { service, root, provider, runtimeId: runtime.runtime_id };
  }

  it('checkpoint works and records no provider snapshot, and the capabilities say exactly that', async () => {
    const { service, runtimeId } = await openLocalRuntime();
    const checkpoint = await service.checkpoint({ runtime_id: runtimeId, name: 'before refactor' });
    expect(await service.getCheckpoint(checkpoint.checkpoint_id)).toMatchObject({
      provider: 'local',
      has_provider_snapshot: false,
      name: 'before refactor',
    });
    expect((await service.providers()).providers).toEqual([
      { provider: 'local', capabilities: { checkpoint: true, snapshot: false, checkout: false, delete_snapshot: false, pause: false, snapshot_kind: null, restore_verification: null }, in_force: expect.any(Object) },
    ]);
  });

  it('checkout of a local checkpoint fails with unsupported_backend, creating and releasing nothing', async () => {
    const { service, root, provider, runtimeId } = await openLocalRuntime();
    const checkpoint = await service.checkpoint({ runtime_id: runtimeId });
    const workspacesBefore = await workspacesIn(root);
    const ownedBefore = await provider.listOwnedResources('runtimectl');
    const error = await failure(service.checkout({ checkpoint_id: checkpoint.checkpoint_id }));
    expect(error.code).toBe('unsupported_backend');
    expect(await workspacesIn(root)).toEqual(workspacesBefore);
    expect(await provider.listOwnedResources('runtimectl')).toEqual(ownedBefore);
    expect((await service.list()).runtimes.map((runtime) => runtime.runtime_id)).toEqual([runtimeId]);
    const read = await service.readFile({ runtime_id: runtimeId, path: 'work.txt' });
    expect(decoded(read.content_base64)).toBe('local work');
  });

  it('pause of a local runtime fails with unsupported_backend and leaves it idle with its workspace', async () => {
    const { service, root, runtimeId } = await openLocalRuntime();
    const workspacesBefore = await workspacesIn(root);
    const error = await failure(service.pause({ runtime_id: runtimeId }));
    expect(error.code).toBe('unsupported_backend');
    expect(await workspacesIn(root)).toEqual(workspacesBefore);
    expect((await service.get(runtimeId)).runtime.status).toBe('idle');
    expect((await service.listCheckpoints(runtimeId)).checkpoints).toEqual([]);
    const read = await service.readFile({ runtime_id: runtimeId, path: 'work.txt' });
    expect(decoded(read.content_base64)).toBe('local work');
  });

  it('close removes the workspace and kills what its commands left running', async () => {
    const { service, root, provider, runtimeId } = await openLocalRuntime();
    const seconds = uniqueSleep();
    await service.exec({ runtime_id: runtimeId, command: `sleep ${seconds} >/dev/null 2>&1 &` });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 1, 2_000)).toBe(true);
    const closed = await service.close({ runtime_id: runtimeId });
    expect(closed.released_backend).toBe(true);
    expect(await workspacesIn(root)).toEqual([]);
    expect(await provider.listOwnedResources('runtimectl')).toEqual({ backends: [], snapshots: [] });
    expect(await eventually(async () => (await sleepersOf(seconds)).length === 0, 2_000)).toBe(true);
  });
});
