import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

// A provider snapshot removed behind the daemon's back (deleted at E2B, or lost with a memory
// provider's process): it reads as gone (checkpoint_snapshot_deleted), never as a retryable 502.
describe('a snapshot that vanished at the provider', () => {
  it('checkout answers checkpoint_snapshot_deleted, creates nothing, and clears it from every checkpoint sharing it', async () => {
    const h = createHarness();
    const id = await h.open();
    await h.write(id, 'a.txt', 'a');
    const first = await h.service.checkpoint({ runtime_id: id });
    const shared = await h.service.checkpoint({ runtime_id: id });
    h.provider.destroySnapshot(h.provider.snapshotIds()[0]!);
    const runtimesBefore = (await h.service.list()).runtimes.length;
    const liveBefore = h.provider.liveBackendIds();

    const error = await rejectionOf(h.service.checkout({ checkpoint_id: first.checkpoint_id }));
    expect(error).toMatchObject({ code: 'checkpoint_snapshot_deleted', details: { checkpoint_id: first.checkpoint_id } });
    expect((await h.service.list()).runtimes.length).toBe(runtimesBefore);
    expect(h.provider.liveBackendIds()).toEqual(liveBefore);
    expect((await h.service.getCheckpoint(first.checkpoint_id)).has_provider_snapshot).toBe(false);
    expect((await h.service.getCheckpoint(shared.checkpoint_id)).has_provider_snapshot).toBe(false);

    // The dead reference is gone: the next try is refused without asking the provider.
    const checkouts = h.provider.calls.checkout;
    expect((await rejectionOf(h.service.checkout({ checkpoint_id: shared.checkpoint_id }))).code).toBe('checkpoint_snapshot_deleted');
    expect(h.provider.calls.checkout).toBe(checkouts);
  });

  it('resume answers checkpoint_snapshot_deleted once and leaves the runtime failed, saying why, so it can be closed', async () => {
    const h = createHarness();
    const id = await h.open('sleeper');
    await h.write(id, 'a.txt', 'a');
    await h.service.pause({ runtime_id: id });
    h.provider.destroySnapshot(h.provider.snapshotIds()[0]!);

    expect((await rejectionOf(h.service.resume({ runtime_id: id }))).code).toBe('checkpoint_snapshot_deleted');
    const detail = await h.service.get(id);
    expect(detail.runtime.status).toBe('failed');
    expect(detail.paused_checkpoint_id).toBeNull();
    expect(detail.last_error).toMatch(/cannot resume: the provider snapshot of its pause checkpoint rtcp_\w+ no longer exists/);
    expect(h.provider.liveBackendIds()).toEqual([]);

    const checkouts = h.provider.calls.checkout;
    const again = await rejectionOf(h.service.resume({ runtime_id: id }));
    expect(again.code).toBe('runtime_failed');
    expect(again.message).toMatch(/cannot resume/);
    expect(h.provider.calls.checkout).toBe(checkouts);

    const closed = await h.service.close({ runtime_id: id });
    expect(closed.runtime.status).toBe('closed');
  });

  it('a checkout that found the snapshot gone makes a paused runtime sharing it fail on resume without a provider call', async () => {
    const h = createHarness();
    const id = await h.open();
    const paused = await h.service.pause({ runtime_id: id });
    h.provider.destroySnapshot(h.provider.snapshotIds()[0]!);
    expect((await rejectionOf(h.service.checkout({ checkpoint_id: paused.checkpoint_id }))).code).toBe('checkpoint_snapshot_deleted');

    const checkouts = h.provider.calls.checkout;
    expect((await rejectionOf(h.service.resume({ runtime_id: id }))).code).toBe('checkpoint_snapshot_deleted');
    expect(h.provider.calls.checkout).toBe(checkouts);
    expect((await h.service.get(id)).runtime.status).toBe('failed');
  });

  it('after a restart with a new memory provider, an old checkpoint reads as gone, never as another runtime\'s files', async () => {
    const store = new MemoryRuntimeStore();
    const before = new RuntimeService({ store, providers: [createMemoryProvider()], defaultProvider: 'memory', installationId: 'inst' });
    const a = (await before.open({ runtime_id: 'a', conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    await before.writeFile({ runtime_id: a, path: 'who.txt', content_base64: Buffer.from('I-am-A').toString('base64') });
    const checkpointOfA = await before.checkpoint({ runtime_id: a });

    const after = new RuntimeService({ store, providers: [createMemoryProvider()], defaultProvider: 'memory', installationId: 'inst' });
    const b = (await after.open({ runtime_id: 'b', conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    await after.writeFile({ runtime_id: b, path: 'who.txt', content_base64: Buffer.from('I-am-B').toString('base64') });
    const checkpointOfB = await after.checkpoint({ runtime_id: b });

    expect((await rejectionOf(after.checkout({ checkpoint_id: checkpointOfA.checkpoint_id }))).code).toBe('checkpoint_snapshot_deleted');
    const child = await after.checkout({ checkpoint_id: checkpointOfB.checkpoint_id });
    const { content_base64 } = await after.readFile({ runtime_id: child.runtime.runtime_id, path: 'who.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('I-am-B');
    expect((await after.getCheckpoint(checkpointOfB.checkpoint_id)).has_provider_snapshot).toBe(true);
  });

  it('start-up reconciliation reports the snapshots records name that the provider no longer lists', async () => {
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const first = new RuntimeService({ store, providers: [provider], defaultProvider: 'memory', installationId: 'inst' });
    const kept = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    const lost = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    await first.checkpoint({ runtime_id: kept });
    await first.pause({ runtime_id: lost });
    const [keptSnapshot] = (await store.listSnapshotIdsOfRuntime(kept)).map((key) => key.snapshotId);
    const [lostSnapshot] = (await store.listSnapshotIdsOfRuntime(lost)).map((key) => key.snapshotId);
    provider.destroySnapshot(lostSnapshot!);

    const report = await new RuntimeService({ store, providers: [provider], defaultProvider: 'memory', installationId: 'inst' }).reconcile();
    expect(report.missingSnapshots).toEqual([lostSnapshot]);
    expect(report.missingSnapshots).not.toContain(keptSnapshot);
    expect(report.errors).toEqual([]);
  });
});
