import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { Sandbox } from 'e2b';
import { createRequest, TEST_API_KEY, useEmulator, useProviders } from './support/emulator-fixture';

// Issue 37 part 2: which E2B calls an N-way checkout makes, and the platform fact that decides it
// (docs/e2b-calls.md, "N-way checkout and E2B's fork"): a fork carries its source's metadata,
// and E2B offers no way to give it other labels, so a forked sandbox would claim its source's
// backend — what reconciliation and the orphan sweeper go by.
const emulator = await useEmulator();
const provider = useProviders(emulator);
const text = (value: string) => Buffer.from(value).toString('base64');

describe('N-way checkout on E2B', () => {
  it('checkout count 16 on e2b makes 16 creates from the snapshot and no fork call; every child is labelled as its own backend', async () => {
    const e2b = provider();
    const runtimes = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [e2b], defaultProvider: 'e2b', installationId: 'n-way' });
    const { runtime } = await runtimes.open({ conversation_id: 'c', sender_id: 's' });
    await runtimes.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: text('checkpointed') });
    const checkpoint = await runtimes.checkpoint({ runtime_id: runtime.runtime_id });
    const before = (await emulator.state()).calls;
    const result = await runtimes.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 16 });
    const after = (await emulator.state()).calls;

    expect(result.results.every((child) => 'runtime' in child)).toBe(true);
    expect({ create: after.create - before.create, fork: (after.fork ?? 0) - (before.fork ?? 0) }).toEqual({ create: 16, fork: 0 });
    const owned = await e2b.listOwnedResources('n-way');
    const backendIds = owned.backends.map((backend) => backend.backendId);
    expect(new Set(backendIds).size).toBe(17);
    const childIds = result.results.map((child) => ('runtime' in child ? child.runtime.runtime_id : ''));
    const labelled = (await emulator.state()).sandboxes.map((sandbox) => sandbox.metadata.runtimectl_runtime_id);
    expect(labelled).toEqual(expect.arrayContaining(childIds));
    await runtimes.close({ runtime_id: runtime.runtime_id, cascade: true });
    expect((await e2b.listOwnedResources('n-way')).backends).toEqual([]);
  });

  it('a fork carries its source\'s ownership metadata: a forked sandbox claims its source\'s backend id (why checkout does not fork)', async () => {
    const e2b = provider();
    const request = createRequest('fork-labels');
    const source = await e2b.create(request);
    const sourceId = String(source.resource.sandboxId);
    const connection = { apiKey: TEST_API_KEY, apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl };
    const forks = await Sandbox.fork(sourceId, { ...connection, count: 2, timeoutMs: 60_000 });
    try {
      expect(forks.every((fork) => fork instanceof Sandbox)).toBe(true);
      const owned = await e2b.listOwnedResources('fork-labels');
      expect(owned.backends).toHaveLength(3);
      expect(new Set(owned.backends.map((backend) => backend.backendId))).toEqual(new Set([request.backendId]));
    } finally {
      await Promise.all(forks.map((fork) => (fork instanceof Sandbox ? Sandbox.kill(fork.sandboxId, connection) : undefined)));
      await e2b.release({ backendId: request.backendId, resource: source.resource });
    }
  });
});
