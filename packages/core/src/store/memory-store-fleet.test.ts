import { describe, expect, it } from 'vitest';
import type { SessionRecord } from './records';
import { MemoryRuntimeStore } from './memory-store';

function storeAt(start = 1_000) {
  const time = { now: start };
  return { store: new MemoryRuntimeStore({ clock: () => time.now }), time };
}

const lease = (runtimeId: string, mode: 'shared' | 'checkout' | 'exclusive', holderId = 'node-a', ttlMs = 100) => ({
  runtimeId,
  holderId,
  mode,
  ttlMs,
});

const session = (runtimeId: string): SessionRecord => ({
  runtimeId,
  conversationId: 'c',
  senderId: 's',
  status: 'idle',
  providerId: 'memory',
  providerOptions: {},
  backend: null,
  sessionState: null,
  metadata: {},
  parentRuntimeId: null,
  forkedFromCheckpointId: null,
  headCheckpointId: null,
  pausedCheckpointId: null,
  lastError: null,
  keepSnapshots: false,
  createdAtMs: 1,
  updatedAtMs: 1,
});

describe('MemoryRuntimeStore leases', () => {
  it('an unexpired exclusive lease refuses every other lease of that runtime, across holders, and only that runtime', async () => {
    const { store } = storeAt();
    const grant = await store.acquireLease(lease('r', 'exclusive'));
    expect(grant.granted).toBe(true);
    for (const mode of ['shared', 'checkout', 'exclusive'] as const) {
      expect(await store.acquireLease(lease('r', mode, 'node-b'))).toEqual({ granted: false, conflict: 'a control operation is in flight' });
    }
    expect((await store.acquireLease(lease('other', 'exclusive', 'node-b'))).granted).toBe(true);
  });

  it('shared leases coexist and keep exclusive and checkout requests out until all are released', async () => {
    const { store } = storeAt();
    const first = await store.acquireLease(lease('r', 'shared'));
    const second = await store.acquireLease(lease('r', 'shared', 'node-b'));
    expect(await store.acquireLease(lease('r', 'checkout'))).toEqual({ granted: false, conflict: 'an operation is in flight' });
    if (!first.granted || !second.granted) throw new Error('not granted');
    await store.releaseLease(first.fence);
    expect((await store.acquireLease(lease('r', 'exclusive'))).granted).toBe(false);
    await store.releaseLease(second.fence);
    expect((await store.acquireLease(lease('r', 'exclusive'))).granted).toBe(true);
  });

  it('checkout leases admit data operations and other checkouts, refuse control operations, and do not make the runtime busy', async () => {
    const { store } = storeAt();
    await store.acquireLease(lease('r', 'checkout'));
    expect((await store.acquireLease(lease('r', 'checkout', 'node-b'))).granted).toBe(true);
    expect(await store.listBusyRuntimeIds()).toEqual([]);
    expect((await store.acquireLease(lease('r', 'shared'))).granted).toBe(true);
    expect(await store.listBusyRuntimeIds()).toEqual(['r']);
    expect(await store.acquireLease(lease('r', 'exclusive'))).toMatchObject({ granted: false });
  });

  it('a lease lapses after its ttl and then conflicts with nothing; a lapsed lease is not renewed', async () => {
    const { store, time } = storeAt();
    await store.acquireLease(lease('r', 'exclusive', 'node-a', 100));
    time.now += 99;
    expect(await store.renewLeases('node-a', 100)).toBe(1);
    time.now += 150;
    expect(await store.listBusyRuntimeIds()).toEqual([]);
    expect(await store.renewLeases('node-a', 100)).toBe(0);
    expect((await store.acquireLease(lease('r', 'exclusive', 'node-b'))).granted).toBe(true);
  });

  it('renewing leases extends only the holder’s own', async () => {
    const { store, time } = storeAt();
    await store.acquireLease(lease('a', 'exclusive', 'node-a', 100));
    await store.acquireLease(lease('b', 'exclusive', 'node-b', 100));
    time.now += 90;
    await store.heartbeatNode('node-a', 100);
    time.now += 50;
    expect(await store.listBusyRuntimeIds()).toEqual(['a']);
  });
});

describe('MemoryRuntimeStore fenced commits', () => {
  it('a commit under an unexpired lease is applied', async () => {
    const { store } = storeAt();
    const grant = await store.acquireLease(lease('r', 'exclusive'));
    if (!grant.granted) throw new Error('not granted');
    await store.commit({ sessions: [session('r')], fences: [grant.fence] });
    expect(await store.getSession('r')).toBeDefined();
  });

  it('a commit whose lease lapsed is refused whole with lease_lost, even after another holder took the runtime', async () => {
    const { store, time } = storeAt();
    const stale = await store.acquireLease(lease('r', 'exclusive', 'node-a', 100));
    if (!stale.granted) throw new Error('not granted');
    time.now += 100;
    expect((await store.acquireLease(lease('r', 'exclusive', 'node-b', 100))).granted).toBe(true);
    await expect(store.commit({ sessions: [session('r')], intents: [], fences: [stale.fence] })).rejects.toMatchObject({ code: 'lease_lost' });
    expect(await store.getSession('r')).toBeUndefined();
  });

  it('a commit under a released lease is refused; one fence lost refuses the whole batch', async () => {
    const { store } = storeAt();
    const held = await store.acquireLease(lease('a', 'exclusive'));
    const released = await store.acquireLease(lease('b', 'exclusive'));
    if (!held.granted || !released.granted) throw new Error('not granted');
    await store.releaseLease(released.fence);
    await expect(store.commit({ sessions: [session('a')], fences: [held.fence, released.fence] })).rejects.toMatchObject({ code: 'lease_lost' });
    expect(await store.getSession('a')).toBeUndefined();
  });
});

describe('MemoryRuntimeStore nodes and installation', () => {
  it('the first installation id claimed is the one every later claim gets', async () => {
    const { store } = storeAt();
    expect(await store.claimInstallationId('first')).toBe('first');
    expect(await store.claimInstallationId('second')).toBe('first');
  });

  it('registers nodes and records their heartbeats on the store clock', async () => {
    const { store, time } = storeAt(5_000);
    await store.registerNode({ nodeId: 'b', advertiseUrl: null, version: '1', startedAtMs: 1 });
    await store.registerNode({ nodeId: 'a', advertiseUrl: 'http://a', version: '1', startedAtMs: 2 });
    time.now = 6_000;
    await store.heartbeatNode('a', 100);
    expect(await store.storeTimeMs()).toBe(6_000);
    expect(await store.listNodes()).toEqual([
      { nodeId: 'a', advertiseUrl: 'http://a', version: '1', startedAtMs: 2, heartbeatAtMs: 6_000 },
      { nodeId: 'b', advertiseUrl: null, version: '1', startedAtMs: 1, heartbeatAtMs: 5_000 },
    ]);
  });
});
