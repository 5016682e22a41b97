import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService, type BackendProviderV1 } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { createHarness, rejectionOf } from './harness';

/** A memory provider whose checkouts numbered in `failing` (1-based, in call order) fail, counting how many run at once. */
function countedProvider(failing: ReadonlySet<number> = new Set()) {
  const inner = createMemoryProvider();
  const counts = { started: 0, inFlight: 0, maxInFlight: 0 };
  const provider: BackendProviderV1 = delegatingProvider(inner, {
    checkout: async (request) => {
      counts.started += 1;
      const call = counts.started;
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      try {
        // Yield a few turns so every checkout the bound allows is under way together.
        for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        if (failing.has(call)) throw new Error('injected create failure');
        return await inner.checkout!(request);
      } finally {
        counts.inFlight -= 1;
      }
    },
  });
  return { inner, provider, counts };
}

function serviceOver(provider: BackendProviderV1, parallelism?: number) {
  const store = new MemoryRuntimeStore();
  const service = new RuntimeService({
    store,
    providers: [provider],
    defaultProvider: 'memory',
    ...(parallelism === undefined ? {} : { checkout: { parallelism } }),
  });
  return { store, service };
}

const text = (base64: string) => Buffer.from(base64, 'base64').toString();

describe('N-way checkout (checkout with count)', () => {
  it('count children each start with the checkpoint files and are independent of each other', async () => {
    const h = createHarness();
    const id = await h.open('source');
    await h.write(id, 'a.txt', 'checkpointed');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const result = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 4 });
    expect(result).toMatchObject({ checkpoint_id: checkpoint.checkpoint_id, source_runtime_id: id });
    expect(result.results).toHaveLength(4);
    const ids = result.results.map((child) => ('runtime' in child ? child.runtime.runtime_id : 'failed'));
    for (const childId of ids) expect(childId).toMatch(/^source:checkout:[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(4);
    for (const [index, childId] of ids.entries()) await h.write(childId, 'a.txt', `child ${index}`);
    for (const [index, childId] of ids.entries()) expect(await h.read(childId, 'a.txt')).toBe(`child ${index}`);
    expect(await h.read(id, 'a.txt')).toBe('checkpointed');
    for (const childId of ids) {
      expect(await h.service.get(childId)).toMatchObject({ parent_runtime_id: id, forked_from_checkpoint_id: checkpoint.checkpoint_id });
    }
  });

  it('a child whose provider create fails answers its own error; the others succeed and the failed one leaves nothing behind', async () => {
    const { inner, provider } = countedProvider(new Set([2]));
    const { service } = serviceOver(provider);
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    const result = await service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 3 });
    const failed = result.results.filter((child) => 'error' in child);
    expect(failed).toEqual([{ error: expect.objectContaining({ code: 'provider_error' }) }]);
    const succeeded = result.results.filter((child) => 'runtime' in child);
    expect(succeeded).toHaveLength(2);
    // The source's backend and the two children's: nothing of the failed child.
    expect(inner.liveBackendIds()).toHaveLength(3);
    const listed = await service.list();
    expect(listed.runtimes.map((record) => record.runtime_id).sort()).toEqual(
      [runtime.runtime_id, ...succeeded.map((child) => ('runtime' in child ? child.runtime.runtime_id : ''))].sort(),
    );
  });

  it('when every child fails nothing was created and the request fails with the first child error, as a single checkout would', async () => {
    const { inner, provider } = countedProvider(new Set([1, 2]));
    const { service } = serviceOver(provider);
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    const error = await rejectionOf(service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 2 }));
    expect(error.code).toBe('provider_error');
    expect(inner.liveBackendIds()).toHaveLength(1);
    expect((await service.list()).runtimes).toHaveLength(1);
  });

  it('provider creates run in parallel, never more at once than the configured bound', async () => {
    const { provider, counts } = countedProvider();
    const { service } = serviceOver(provider, 3);
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    const result = await service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 7 });
    expect(result.results.every((child) => 'runtime' in child)).toBe(true);
    expect(counts).toMatchObject({ started: 7, maxInFlight: 3 });
  });

  it('the default bound is 8', async () => {
    const { provider, counts } = countedProvider();
    const { service } = serviceOver(provider);
    const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's' });
    const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
    await service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 12 });
    expect(counts).toMatchObject({ started: 12, maxInFlight: 8 });
  });

  it('request-level errors fail the whole request and create nothing: unknown checkpoint, deleted snapshot, no checkout support', async () => {
    const h = createHarness();
    const missing = await rejectionOf(h.service.checkout({ checkpoint_id: `rtcp_${'0'.repeat(32)}`, count: 2 }));
    expect(missing.code).toBe('checkpoint_not_found');
    const id = await h.open();
    await h.write(id, 'a.txt', 'x');
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    await h.service.deleteCheckpointSnapshot({ checkpoint_id: checkpoint.checkpoint_id });
    const deleted = await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 2 }));
    expect(deleted.code).toBe('checkpoint_snapshot_deleted');
    const local = await h.open('local-source', 'nosnap');
    const localCheckpoint = await h.service.checkpoint({ runtime_id: local });
    const unsupported = await rejectionOf(h.service.checkout({ checkpoint_id: localCheckpoint.checkpoint_id, count: 2 }));
    expect(unsupported.code).toBe('unsupported_backend');
    expect((await h.service.list()).runtimes).toHaveLength(2);
    expect(h.provider.calls.checkout).toBe(0);
  });

  it('a busy source refuses the N-way checkout as a whole', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const held = h.service.pause({ runtime_id: id });
    const busy = await rejectionOf(h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id, count: 2 }));
    await held;
    expect(busy.code).toBe('session_busy');
  });

  it('without count the answer is the single-child shape it always was', async () => {
    const h = createHarness();
    const id = await h.open();
    const checkpoint = await h.service.checkpoint({ runtime_id: id });
    const single = await h.service.checkout({ checkpoint_id: checkpoint.checkpoint_id });
    expect(Object.keys(single).sort()).toEqual(['checkpoint_id', 'runtime', 'source_runtime_id']);
  });
});

describe('fork N (checkpoint once, check it out count ways)', () => {
  it('makes one checkpoint of the runtime and count children of it, each with its files', async () => {
    const h = createHarness();
    const id = await h.open('forked');
    await h.write(id, 'a.txt', 'state');
    const result = await h.service.forkRuntime({ runtime_id: id, count: 3, name: 'branch point' });
    expect(result).toMatchObject({ source_runtime_id: id, reused_backend_snapshot: false });
    expect(h.provider.calls.checkpoint).toBe(1);
    const checkpoints = await h.service.listCheckpoints(id);
    expect(checkpoints.checkpoints.map((view) => [view.checkpoint_id, view.name])).toEqual([[result.checkpoint_id, 'branch point']]);
    expect(result.results).toHaveLength(3);
    for (const child of result.results) {
      if (!('runtime' in child)) throw new Error(`child failed: ${JSON.stringify(child)}`);
      expect(await h.read(child.runtime.runtime_id, 'a.txt')).toBe('state');
      expect((await h.service.get(child.runtime.runtime_id)).forked_from_checkpoint_id).toBe(result.checkpoint_id);
    }
  });
});
