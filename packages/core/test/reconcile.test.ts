import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService, type StoreBatch } from '@runtimectl/core';
import { createMemoryProvider, type MemoryProvider } from '@runtimectl/testkit';
import { rejectionOf } from './harness';

/** A store that fails the next commit carrying sessions, like a crash between the provider call and the commit. */
class CrashingStore extends MemoryRuntimeStore {
  crashNextSessionCommit = false;

  override async commit(batch: StoreBatch): Promise<void> {
    if (this.crashNextSessionCommit && (batch.sessions?.length ?? 0) > 0) {
      this.crashNextSessionCommit = false;
      throw new Error('simulated crash before commit');
    }
    return super.commit(batch);
  }
}

function daemon(store: MemoryRuntimeStore, provider: MemoryProvider, installationId = 'inst-a') {
  return new RuntimeService({ store, providers: [provider], defaultProvider: 'memory', installationId });
}

describe('start-up reconciliation', () => {
  it('releases a backend created for an open that never committed, and resolves its intent', async () => {
    const store = new CrashingStore();
    const provider = createMemoryProvider();
    store.crashNextSessionCommit = true;
    // Simulate the crash: the process dies before its rollback could release anything.
    provider.failNext('release');
    await rejectionOf(daemon(store, provider).open({ conversation_id: 'c', sender_id: 's' }));
    expect(provider.liveBackendIds()).toHaveLength(1);
    expect(await store.listIntents()).toHaveLength(1);

    const report = await daemon(store, provider).reconcile();
    expect(report.releasedBackends).toHaveLength(1);
    expect(report.resolvedIntents).toBe(1);
    expect(provider.liveBackendIds()).toEqual([]);
    expect(await store.listIntents()).toEqual([]);
  });

  it('deletes a snapshot taken for a checkpoint that never committed', async () => {
    const store = new CrashingStore();
    const provider = createMemoryProvider();
    const first = daemon(store, provider);
    const { runtime } = await first.open({ conversation_id: 'c', sender_id: 's' });
    store.crashNextSessionCommit = true;
    await rejectionOf(first.checkpoint({ runtime_id: runtime.runtime_id }));
    expect(provider.snapshotIds()).toHaveLength(1);

    const report = await daemon(store, provider).reconcile();
    expect(report.deletedSnapshots).toHaveLength(1);
    expect(provider.snapshotIds()).toEqual([]);
    expect(report.releasedBackends).toEqual([]);
    expect(provider.liveBackendIds()).toHaveLength(1);
  });

  it('deletes a snapshot a failed close left behind, and keeps the ones still needed', async () => {
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const first = daemon(store, provider);
    const closing = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    const kept = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    await first.checkpoint({ runtime_id: closing });
    await first.checkpoint({ runtime_id: kept });
    await first.pause({ runtime_id: kept });
    provider.failNext('delete_snapshot');
    await rejectionOf(first.close({ runtime_id: closing }));
    expect(provider.snapshotIds()).toHaveLength(2);

    const report = await daemon(store, provider).reconcile();
    expect(report.deletedSnapshots).toHaveLength(1);
    expect(provider.snapshotIds()).toHaveLength(1);
    await daemon(store, provider).resume({ runtime_id: kept });
  });

  it('marks a runtime whose backend vanished as failed, saying so', async () => {
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const { runtime } = await daemon(store, provider).open({ conversation_id: 'c', sender_id: 's' });
    provider.destroyBackend(provider.liveBackendIds()[0]!);
    const restarted = daemon(store, provider);
    expect((await restarted.reconcile()).failedRuntimes).toEqual([runtime.runtime_id]);
    const detail = await restarted.get(runtime.runtime_id);
    expect(detail.runtime.status).toBe('failed');
    expect(detail.last_error).toMatch(/no longer existed when the daemon started/);
  });

  it("leaves bound backends, kept snapshots and other installations' resources alone", async () => {
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const ours = daemon(store, provider);
    const { runtime } = await ours.open({ conversation_id: 'c', sender_id: 's' });
    await ours.checkpoint({ runtime_id: runtime.runtime_id });
    const theirs = daemon(new MemoryRuntimeStore(), provider, 'inst-b');
    await theirs.open({ conversation_id: 'c', sender_id: 's' });
    const report = await daemon(store, provider).reconcile();
    const nothing = { resolvedIntents: 0, releasedBackends: [], deletedSnapshots: [], failedRuntimes: [], completedPauses: [] };
    expect(report).toEqual({ ...nothing, missingSnapshots: [], errors: [] });
    expect(provider.liveBackendIds()).toHaveLength(2);
    expect(provider.snapshotIds()).toHaveLength(1);
  });

  it('completes a pause interrupted after its checkpoint was recorded, releasing the backend if it is still there', async () => {
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const first = daemon(store, provider);
    const released = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    const kept = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    // released: its backend is gone and the pause checkpoint recorded, but the runtime still idle.
    const before = (await store.getSession(released))!;
    await first.pause({ runtime_id: released });
    const after = (await store.getSession(released))!;
    await store.commit({ sessions: [{ ...before, headCheckpointId: after.headCheckpointId, pausedCheckpointId: after.pausedCheckpointId }] });
    // kept: the pause checkpoint recorded, the backend never released.
    const checkpoint = await first.checkpoint({ runtime_id: kept });
    await store.commit({ sessions: [{ ...(await store.getSession(kept))!, pausedCheckpointId: checkpoint.checkpoint_id }] });

    const report = await daemon(store, provider).reconcile();
    expect([...report.completedPauses].sort()).toEqual([released, kept].sort());
    expect(report.failedRuntimes).toEqual([]);
    expect(await store.getSession(released)).toMatchObject({ status: 'paused', backend: null });
    expect(await store.getSession(kept)).toMatchObject({ status: 'paused', backend: null, pausedCheckpointId: checkpoint.checkpoint_id });
    expect(provider.liveBackendIds()).toEqual([]);
    await daemon(store, provider).resume({ runtime_id: released });
    await daemon(store, provider).resume({ runtime_id: kept });
  });

  it('a pause it completes also deletes the snapshot the released backend came from, once nothing else keeps it', async () => {
    // Found by crash-restart (seed 804078303): a checkout child killed mid-pause kept its source
    // snapshot alive — its parent closed — because completing the pause released the backend
    // after the snapshot sweep had judged the binding a keeper, and nothing deleted it then.
    const store = new MemoryRuntimeStore();
    const provider = createMemoryProvider();
    const first = daemon(store, provider);
    const parent = (await first.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
    const source = await first.checkpoint({ runtime_id: parent });
    const child = (await first.checkout({ checkpoint_id: source.checkpoint_id })).runtime.runtime_id;
    await first.close({ runtime_id: parent });
    expect(provider.snapshotIds()).toHaveLength(1);
    // The child's pause checkpoint recorded (of a change: a snapshot of its own), its backend
    // (made from the parent's snapshot) never released.
    await first.exec({ runtime_id: child, command: 'echo changed > file' });
    const resumePoint = await first.checkpoint({ runtime_id: child });
    await store.commit({ sessions: [{ ...(await store.getSession(child))!, pausedCheckpointId: resumePoint.checkpoint_id }] });
    const sourceSnapshot = (await store.getCheckpoint(source.checkpoint_id))!.backendRef!.providerSnapshotId!;

    const report = await daemon(store, provider).reconcile();
    expect(report.completedPauses).toEqual([child]);
    expect(report.deletedSnapshots).toEqual([sourceSnapshot]);
    expect(provider.snapshotIds()).toEqual([(await store.getCheckpoint(resumePoint.checkpoint_id))!.backendRef!.providerSnapshotId]);
    await daemon(store, provider).resume({ runtime_id: child });
  });
});
