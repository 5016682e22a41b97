import { describe, expect, it } from 'vitest';
import { RuntimeLeases } from '../runtime/runtime-leases';
import { MemoryRuntimeStore } from '../store/memory-store';
import { FleetMembership } from './fleet-membership';

const LEASE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FleetMembership', () => {
  // A sweep (listing every resource at E2B) or a keep-alive pass can take longer than the lease.
  // Were the heartbeat to wait behind it, the node would read as dead and its leases lapse while
  // it works: another node would then sweep its in-flight creates as orphans.
  it('a maintenance or keep-alive pass longer than the lease never holds the heartbeat back: the node stays alive, its leases renewed', async () => {
    const store = new MemoryRuntimeStore();
    const leases = new RuntimeLeases(store, 'node-a', LEASE_MS);
    let releasePasses!: () => void;
    const passesHeld = new Promise<void>((resolve) => (releasePasses = resolve));
    const node = { nodeId: 'node-a', leaseMs: LEASE_MS, advertiseUrl: null, version: 'test' };
    const membership = new FleetMembership(store, node, leases, () => passesHeld, () => passesHeld);
    await membership.start();
    const operation = await leases.acquire('rt-1', 'exclusive');
    await sleep(LEASE_MS * 3.5);
    const [registered] = await store.listNodes();
    expect((await store.storeTimeMs()) - registered!.heartbeatAtMs).toBeLessThan(LEASE_MS);
    await expect(store.commit({ fences: [operation] })).resolves.toBeUndefined();
    releasePasses();
    await membership.stop();
  });
});
