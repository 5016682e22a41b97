import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { listSandboxes } from '../src/owned-resources';
import { sdkCaller } from '../src/request-deadline';
import { createRequest, TEST_API_KEY, useEmulator, useProviders } from './support/emulator-fixture';

// Ownership: what core labels, E2B must carry, so reconciliation finds exactly this
// installation's sandboxes and snapshots after a crash.
const emulator = await useEmulator();
const provider = useProviders(emulator);

const metadataOf = async (sandboxId: unknown) =>
  (await emulator.state()).sandboxes.find((sandbox) => sandbox.sandboxId === sandboxId)?.metadata;

describe('fleet locality', () => {
  it('declares its sandboxes reachable from every node of a fleet (attach by sandbox id), so its runtimes have no home node', () => {
    expect(provider().locality).toBe('fleet');
  });
});

describe('ownership labels', () => {
  it('create and checkout put core’s labels on the sandbox as E2B metadata', async () => {
    const made = provider();
    const request = createRequest('labels-1');
    const backend = await made.create(request);
    expect(await metadataOf(backend.resource.sandboxId)).toEqual(request.labels);
    const snapshot = await made.checkpoint(backend, { labels: { ...request.labels, runtimectl_ref_id: 'bcp_0123456789abcdef0123456789abcdef' } });
    const childRequest = createRequest('labels-1');
    const child = await made.checkout({ ...childRequest, snapshotId: snapshot.snapshotId });
    expect(await metadataOf(child.resource.sandboxId)).toEqual(childRequest.labels);
    for (const resource of [backend.resource, child.resource]) await made.release({ backendId: 'x', resource });
    await made.deleteSnapshot(snapshot.snapshotId);
  });

  it('snapshots are named from the labels, never from the caller’s checkpoint name, so equal names never collide', async () => {
    const made = provider();
    const first = await made.create(createRequest('names-1'));
    const second = await made.create(createRequest('names-1'));
    const refOf = () => `bcp_${randomBytes(16).toString('hex')}`;
    const a = await made.checkpoint(first, { name: 'before-refactor', labels: { runtimectl_installation: 'names-1', runtimectl_ref_id: refOf() } });
    const b = await made.checkpoint(second, { name: 'before-refactor', labels: { runtimectl_installation: 'names-1', runtimectl_ref_id: refOf() } });
    expect(a.snapshotId).not.toBe(b.snapshotId);
    for (const snapshot of [a, b]) {
      expect(snapshot.snapshotId).not.toContain('before-refactor');
      expect(snapshot.names).toHaveLength(1);
      expect(snapshot.names[0]).toMatch(/^emulator-team\/rtctl-[0-9a-f]{12}-names-1-bcp-[0-9a-f]{32}:default$/);
    }
    // Both still exist: the second did not replace the first under a shared alias.
    expect((await emulator.state()).snapshots.map((snapshot) => snapshot.snapshotId).sort()).toEqual([a.snapshotId, b.snapshotId].sort());
    for (const backend of [first, second]) await made.release({ backendId: 'x', resource: backend.resource });
    for (const snapshot of [a, b]) await made.deleteSnapshot(snapshot.snapshotId);
  });
});

describe('listOwnedResources', () => {
  it('lists exactly this installation’s sandboxes (with their resources) and snapshots', async () => {
    const made = provider();
    const mine = createRequest('owner-a', { timeout_ms: 120_000 });
    const backend = await made.create(mine);
    const other = await made.create(createRequest('owner-b'));
    const snapshot = await made.checkpoint(backend, { labels: { runtimectl_installation: 'owner-a', runtimectl_ref_id: 'bcp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } });
    const foreign = await made.checkpoint(other, { labels: { runtimectl_installation: 'owner-b', runtimectl_ref_id: 'bcp_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' } });
    const owned = await made.listOwnedResources('owner-a');
    expect(owned.backends).toEqual([{ backendId: mine.backendId, resource: backend.resource }]);
    expect(backend.resource).toEqual({ sandboxId: backend.resource.sandboxId, timeoutMs: 120_000 });
    expect(owned.snapshots).toEqual([{ snapshotId: snapshot.snapshotId }]);
    expect((await made.listOwnedResources('owner-b')).snapshots).toEqual([{ snapshotId: foreign.snapshotId }]);
    expect(await made.listOwnedResources('owner-c')).toEqual({ backends: [], snapshots: [] });
    for (const live of [backend, other]) await made.release({ backendId: 'x', resource: live.resource });
    for (const made_ of [snapshot, foreign]) await made.deleteSnapshot(made_.snapshotId);
  });

  it('reads every page of the sandbox listing', async () => {
    const made = provider();
    const backends = [];
    for (let index = 0; index < 5; index += 1) backends.push(await made.create(createRequest('paged')));
    const api = sdkCaller({ apiKey: TEST_API_KEY, apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl }, 10_000);
    const listed = await listSandboxes(api, { runtimectl_installation: 'paged' }, 2);
    expect(listed.map((sandbox) => sandbox.sandboxId).sort()).toEqual(backends.map((backend) => backend.resource.sandboxId).sort());
    expect((await emulator.state()).calls.list).toBe(3);
    for (const backend of backends) await made.release({ backendId: 'x', resource: backend.resource });
  });

  it('through core, lists the runtime’s backend binding and its checkpoint’s snapshot under the service’s installation id', async () => {
    const made = provider();
    const store = new MemoryRuntimeStore();
    const service = new RuntimeService({ store, providers: [made], defaultProvider: 'e2b', installationId: 'inst_service' });
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: 'YQ==' });
    await service.checkpoint({ runtime_id: runtime.runtime_id, name: 'first' });
    const binding = (await store.getSession(runtime.runtime_id))!.backend!;
    const owned = await made.listOwnedResources('inst_service');
    expect(owned.backends).toEqual([{ backendId: binding.backendId, resource: binding.resource }]);
    expect(owned.snapshots).toHaveLength(1);
    await service.close({ runtime_id: runtime.runtime_id });
    expect(await made.listOwnedResources('inst_service')).toEqual({ backends: [], snapshots: [] });
  });
});
