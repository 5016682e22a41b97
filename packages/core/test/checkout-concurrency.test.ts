import { describe, expect, it } from 'vitest';
import type { BackendCheckoutRequest, ProviderBackend } from '@runtimectl/core';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { createGate, rejectionOf } from './harness';

/** A memory provider whose checkouts wait for `gate.release()` before creating anything. */
function gatedCheckoutService() {
  const inner = createMemoryProvider();
  const gate = createGate();
  let waiting = 0;
  const arrivals: Array<() => void> = [];
  const provider = delegatingProvider(inner, {
    checkout: async (request: BackendCheckoutRequest): Promise<ProviderBackend> => {
      waiting += 1;
      for (const arrived of arrivals.splice(0)) arrived();
      gate.enter();
      await gate.opened;
      return inner.checkout!(request);
    },
  });
  const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider], defaultProvider: 'memory' });
  /** Resolves once `count` provider checkouts are waiting at the gate. */
  const checkoutsWaiting = async (count: number) => {
    while (waiting < count) await new Promise<void>((resolve) => arrivals.push(resolve));
  };
  return { inner, gate, service, checkoutsWaiting };
}

async function openWithCheckpoint(service: RuntimeService) {
  const { runtime } = await service.open({ conversation_id: 'c', sender_id: 's', runtime_id: 'source' });
  await service.writeFile({ runtime_id: runtime.runtime_id, path: 'a.txt', content_base64: Buffer.from('v1').toString('base64') });
  const checkpoint = await service.checkpoint({ runtime_id: runtime.runtime_id });
  return { runtimeId: runtime.runtime_id, checkpointId: checkpoint.checkpoint_id };
}

describe('checkout concurrency (a checkout keeps the snapshot alive, not the source frozen)', () => {
  it('five concurrent checkouts of one checkpoint all succeed, each with its own runtime', async () => {
    const { gate, service, checkoutsWaiting } = gatedCheckoutService();
    const { checkpointId } = await openWithCheckpoint(service);
    const checkouts = Array.from({ length: 5 }, () => service.checkout({ checkpoint_id: checkpointId }));
    await checkoutsWaiting(5);
    gate.release();
    const results = await Promise.all(checkouts);
    expect(new Set(results.map((result) => result.runtime.runtime_id)).size).toBe(5);
    for (const result of results) {
      const { content_base64 } = await service.readFile({ runtime_id: result.runtime.runtime_id, path: 'a.txt' });
      expect(Buffer.from(content_base64, 'base64').toString()).toBe('v1');
    }
  });

  it('exec and file writes on the source proceed while a checkout of its checkpoint is in flight, and the source reads idle', async () => {
    const { gate, service, checkoutsWaiting } = gatedCheckoutService();
    const { runtimeId, checkpointId } = await openWithCheckpoint(service);
    const checkout = service.checkout({ checkpoint_id: checkpointId });
    await checkoutsWaiting(1);
    expect((await service.get(runtimeId)).runtime.status).toBe('idle');
    expect((await service.exec({ runtime_id: runtimeId, command: 'echo hi' })).exit_code).toBe(0);
    await service.writeFile({ runtime_id: runtimeId, path: 'a.txt', content_base64: Buffer.from('v2').toString('base64') });
    gate.release();
    const child = await checkout;
    const { content_base64 } = await service.readFile({ runtime_id: child.runtime.runtime_id, path: 'a.txt' });
    expect(Buffer.from(content_base64, 'base64').toString()).toBe('v1');
  });

  it('delete-snapshot of the checkpoint being checked out answers snapshot_in_use and deletes nothing', async () => {
    const { inner, gate, service, checkoutsWaiting } = gatedCheckoutService();
    const { checkpointId } = await openWithCheckpoint(service);
    const checkout = service.checkout({ checkpoint_id: checkpointId });
    await checkoutsWaiting(1);
    const snapshots = inner.snapshotIds();
    expect((await rejectionOf(service.deleteCheckpointSnapshot({ checkpoint_id: checkpointId }))).code).toBe('snapshot_in_use');
    expect(inner.snapshotIds()).toEqual(snapshots);
    gate.release();
    await checkout;
  });

  it('close of the source while a checkout of its checkpoint is in flight answers session_busy and closes nothing', async () => {
    const { gate, service, checkoutsWaiting } = gatedCheckoutService();
    const { runtimeId, checkpointId } = await openWithCheckpoint(service);
    const checkout = service.checkout({ checkpoint_id: checkpointId });
    await checkoutsWaiting(1);
    const error = await rejectionOf(service.close({ runtime_id: runtimeId }));
    expect(error).toMatchObject({ code: 'session_busy', details: { runtime_id: runtimeId } });
    expect((await service.get(runtimeId)).runtime.status).toBe('idle');
    gate.release();
    const child = await checkout;
    await service.close({ runtime_id: runtimeId, cascade: true });
    expect((await service.get(child.runtime.runtime_id)).runtime.status).toBe('closed');
  });
});
