import { afterEach, beforeEach, it } from 'vitest';
import type { RuntimeStore } from '@runtimectl/core';
import type { ResolvedStoreConformanceOptions, StoreUnderTest } from './store-conformance-options';

export interface StoreHarness {
  /** The store of the running test (after `restart`, the reopened one). */
  readonly store: RuntimeStore;
  /**
   * Simulates a daemon restart: closes the store and returns a new one over the same durable
   * state (the factory's `reopen`), or the same instance when the factory gave no `reopen`.
   */
  restart(): Promise<RuntimeStore>;
  /**
   * `count` stores on the test's shared state, as `count` nodes of a fleet see it: the test's
   * store first, then peers from the factory's `openPeer` (closed after the test), or the test's
   * store again when the factory gave none.
   */
  nodes(count: number): Promise<RuntimeStore[]>;
}

interface TestState {
  store: RuntimeStore;
  cleanup: (() => void | Promise<void>) | undefined;
  reopen: (() => RuntimeStore | Promise<RuntimeStore>) | undefined;
  openPeer: (() => RuntimeStore | Promise<RuntimeStore>) | undefined;
  peers: RuntimeStore[];
}

function unwrap(value: StoreUnderTest): TestState {
  if ('commit' in value && typeof value.commit === 'function') {
    return { store: value, cleanup: undefined, reopen: undefined, openPeer: undefined, peers: [] };
  }
  const wrapped = value as Exclude<StoreUnderTest, RuntimeStore>;
  return { store: wrapped.store, cleanup: wrapped.cleanup, reopen: wrapped.reopen, openPeer: wrapped.openPeer, peers: [] };
}

/**
 * Registers per-test setup and teardown in the enclosing `describe`: each test gets a fresh
 * store from the factory; afterwards the store is closed and the factory's cleanup runs.
 * A store whose close or cleanup fails fails the test.
 */
export function useStoreHarness(options: ResolvedStoreConformanceOptions): StoreHarness {
  let state: TestState | undefined;
  const current = (): TestState => {
    if (!state) throw new Error('the store conformance harness is only usable inside a test');
    return state;
  };

  beforeEach(async () => {
    state = unwrap(await options.createStore());
  }, options.timeouts.hookMs);

  afterEach(async () => {
    const finished = state;
    state = undefined;
    if (!finished) return;
    try {
      await Promise.all([finished.store, ...finished.peers].map((store) => store.close()));
    } finally {
      await finished.cleanup?.();
    }
  }, options.timeouts.hookMs);

  return {
    get store() {
      return current().store;
    },
    async restart() {
      const test = current();
      if (!test.reopen) return test.store;
      await test.store.close();
      test.store = await test.reopen();
      return test.store;
    },
    async nodes(count) {
      const test = current();
      const { openPeer } = test;
      if (!openPeer) return Array.from({ length: count }, () => test.store);
      const peers = await Promise.all(Array.from({ length: count - 1 }, () => openPeer()));
      test.peers.push(...peers);
      return [test.store, ...peers];
    },
  };
}

/** `it` with the suite's per-test timeout. */
export function storeTest(options: ResolvedStoreConformanceOptions) {
  return (name: string, fn: () => Promise<void>) => it(name, fn, options.timeouts.testMs);
}
