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
}

interface TestState {
  store: RuntimeStore;
  cleanup: (() => void | Promise<void>) | undefined;
  reopen: (() => RuntimeStore | Promise<RuntimeStore>) | undefined;
}

function unwrap(value: StoreUnderTest): TestState {
  if ('commit' in value && typeof value.commit === 'function') return { store: value, cleanup: undefined, reopen: undefined };
  const wrapped = value as Exclude<StoreUnderTest, RuntimeStore>;
  return { store: wrapped.store, cleanup: wrapped.cleanup, reopen: wrapped.reopen };
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
      await finished.store.close();
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
  };
}

/** `it` with the suite's per-test timeout. */
export function storeTest(options: ResolvedStoreConformanceOptions) {
  return (name: string, fn: () => Promise<void>) => it(name, fn, options.timeouts.testMs);
}
