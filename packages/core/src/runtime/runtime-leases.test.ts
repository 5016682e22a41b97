import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/runtime-state-errors';
import { MemoryRuntimeStore } from '../store/memory-store';
import { RuntimeLeases } from './runtime-leases';

/** Two nodes' leases on one store: the fleet's conflict rules are the single daemon's. */
function twoNodes() {
  const store = new MemoryRuntimeStore();
  return { store, a: new RuntimeLeases(store, 'node-a', 15_000), b: new RuntimeLeases(store, 'node-b', 15_000) };
}

describe('RuntimeLeases', () => {
  it('shared holders coexist and block an exclusive holder until all release', async () => {
    const { a, b } = twoNodes();
    const first = await a.acquire('r', 'shared');
    const second = await b.acquire('r', 'shared');
    await expect(a.acquire('r', 'exclusive')).rejects.toThrow(SessionBusyError);
    await a.release(first);
    await expect(b.acquire('r', 'exclusive')).rejects.toThrow(SessionBusyError);
    await b.release(second);
    expect(await a.busyRuntimeIds()).toEqual(new Set());
    await a.release(await a.acquire('r', 'exclusive'));
  });

  it('an exclusive holder fails everything else fast, on any node, on that runtime only', async () => {
    const { a, b } = twoNodes();
    const held = await a.acquire('r', 'exclusive');
    for (const mode of ['shared', 'checkout', 'exclusive'] as const) {
      await expect(b.acquire('r', mode)).rejects.toThrow('runtime r is busy: a control operation is in flight');
    }
    await b.release(await b.acquire('other', 'shared'));
    await a.release(held);
    await a.release(held);
    expect(await b.busyRuntimeIds()).toEqual(new Set());
  });

  it('checkouts in flight admit other checkouts and data operations, refuse control operations, and do not read as running', async () => {
    const { a, b } = twoNodes();
    const first = await a.acquire('r', 'checkout');
    const second = await b.acquire('r', 'checkout');
    expect(await a.busyRuntimeIds()).toEqual(new Set());
    const data = await b.acquire('r', 'shared');
    expect(await a.busyRuntimeIds()).toEqual(new Set(['r']));
    await b.release(data);
    await expect(a.acquire('r', 'exclusive')).rejects.toThrow(/a checkout of its checkpoint is in flight/);
    await a.release(first);
    await b.release(second);
    await a.release(await a.acquire('r', 'exclusive'));
  });

  it('a checkout arriving while a data operation runs is refused (the source must be idle when it arrives)', async () => {
    const { a, b } = twoNodes();
    const data = await a.acquire('r', 'shared');
    await expect(b.acquire('r', 'checkout')).rejects.toThrow(/an operation is in flight/);
    await a.release(data);
    await b.release(await b.acquire('r', 'checkout'));
  });

  it('a release the store could not take is retried, so a heartbeat never keeps a finished operation’s lease alive', async () => {
    const { store, a, b } = twoNodes();
    const held = await a.acquire('r', 'exclusive');
    const release = store.releaseLease.bind(store);
    store.releaseLease = async () => {
      throw new Error('store unreachable');
    };
    await a.release(held);
    store.releaseLease = release;
    await expect(b.acquire('r', 'exclusive')).rejects.toThrow(SessionBusyError);
    await a.retryReleases();
    await b.release(await b.acquire('r', 'exclusive'));
  });
});
