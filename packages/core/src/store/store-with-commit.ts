import type { RuntimeStore, StoreBatch } from './runtime-store';

/** Every member of `store`'s, bound to it (or read through to it): made once per store. */
const delegates = new WeakMap<RuntimeStore, RuntimeStore>();

function delegateOf(store: RuntimeStore): RuntimeStore {
  let delegate = delegates.get(store);
  if (delegate) return delegate;
  delegate = Object.create(null) as RuntimeStore;
  for (let layer: object | null = store; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer)) {
    for (const key of Reflect.ownKeys(layer)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(delegate, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(layer, key)!;
      if (typeof descriptor.value === 'function') {
        Object.defineProperty(delegate, key, { value: descriptor.value.bind(store) });
      } else {
        Object.defineProperty(delegate, key, { get: () => (store as unknown as Record<PropertyKey, unknown>)[key] });
      }
    }
  }
  delegates.set(store, delegate);
  return delegate;
}

/**
 * `store` with `commit` in place of its own; every other member is `store`'s. A plain object whose
 * prototype holds `store`'s members bound to it, built once per store: an operation's view then
 * costs one small object, and each call through it a prototype lookup. (A Proxy did the same with
 * a trap and a new bound function on every property read, on every store call of every operation.)
 */
export function storeWithCommit(store: RuntimeStore, commit: (batch: StoreBatch) => Promise<void>): RuntimeStore {
  const view = Object.create(delegateOf(store)) as RuntimeStore;
  Object.defineProperty(view, 'commit', { value: commit, enumerable: true });
  return view;
}
