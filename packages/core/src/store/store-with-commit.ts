import type { RuntimeStore, StoreBatch } from './runtime-store';

/** Every member of `store`'s, read from it when asked (a method bound to it): made once per store. */
const delegates = new WeakMap<RuntimeStore, RuntimeStore>();

function delegateOf(store: RuntimeStore): RuntimeStore {
  let delegate = delegates.get(store);
  if (delegate) return delegate;
  delegate = Object.create(null) as RuntimeStore;
  for (let layer: object | null = store; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const key of Reflect.ownKeys(layer)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(delegate, key)) continue;
      Object.defineProperty(delegate, key, { get: memberOf(store, key) });
    }
  }
  delegates.set(store, delegate);
  return delegate;
}

/**
 * Reads `store[key]` when asked, as the store's own member is (a test that replaces a method of
 * the store is seen); a method comes bound to the store, bound again only when it changed.
 */
function memberOf(store: RuntimeStore, key: PropertyKey): () => unknown {
  let method: unknown;
  let bound: unknown;
  return () => {
    const value = (store as unknown as Record<PropertyKey, unknown>)[key];
    if (typeof value !== 'function') return value;
    if (value !== method) {
      method = value;
      bound = value.bind(store);
    }
    return bound;
  };
}

/**
 * `store` with `commit` in place of its own; every other member is `store`'s. A plain object whose
 * prototype reads `store`'s members (methods bound to it, once each), built once per store: an
 * operation's view then costs one small object, and each call through it a getter. (A Proxy did
 * the same with a trap and a new bound function on every property read, on every store call of
 * every operation.) Members the store gains after its first view are not seen.
 */
export function storeWithCommit(store: RuntimeStore, commit: (batch: StoreBatch) => Promise<void>): RuntimeStore {
  const view = Object.create(delegateOf(store)) as RuntimeStore;
  Object.defineProperty(view, 'commit', { value: commit, enumerable: true });
  return view;
}
