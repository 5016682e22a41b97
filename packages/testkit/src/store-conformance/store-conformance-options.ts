import type { RuntimeStore } from '@runtimectl/core';

/**
 * What a store factory hands the suite: the store, or the store plus
 * - `cleanup`, run after the test once the suite has closed the store (remove a temp dir,
 *   drop a database);
 * - `openPeer`, for a store several processes share (see below);
 * - `reopen`, which returns a NEW store over the same durable state (same file, same
 *   database). The suite closes the current store first, exactly as a daemon restart would.
 *   Omit it for a process-local store: the restart tests then keep the same instance.
 */
export type StoreUnderTest =
  | RuntimeStore
  | {
      store: RuntimeStore;
      cleanup?: () => void | Promise<void>;
      reopen?: () => RuntimeStore | Promise<RuntimeStore>;
      /**
       * Opens ANOTHER store on the same shared state while this one stays open, as another node
       * of a fleet would (a second pool on the same database). The lease tests race their
       * requests across such peers. Omit it for a store one process owns alone (memory, SQLite):
       * those tests then run every "node" on the one store.
       */
      openPeer?: () => RuntimeStore | Promise<RuntimeStore>;
    };

/** Called once per test: every test gets a fresh, empty store. May be async. */
export type StoreFactory = () => StoreUnderTest | Promise<StoreUnderTest>;

export interface StoreConformanceTimeouts {
  /** Per test. Default 30 s. */
  testMs: number;
  /** Per setup/teardown hook (creating, closing and cleaning up the store). Default 30 s. */
  hookMs: number;
}

export interface StoreConformanceOptions {
  /** Shown in the `describe` title, e.g. `memory` or `sqlite (file)`. */
  name: string;
  createStore: StoreFactory;
  timeouts?: Partial<StoreConformanceTimeouts>;
}

export interface ResolvedStoreConformanceOptions {
  name: string;
  createStore: StoreFactory;
  timeouts: StoreConformanceTimeouts;
}

export const DEFAULT_STORE_TIMEOUTS: StoreConformanceTimeouts = { testMs: 30_000, hookMs: 30_000 };

export function resolveStoreConformanceOptions(options: StoreConformanceOptions): ResolvedStoreConformanceOptions {
  return {
    name: options.name,
    createStore: options.createStore,
    timeouts: { ...DEFAULT_STORE_TIMEOUTS, ...options.timeouts },
  };
}
