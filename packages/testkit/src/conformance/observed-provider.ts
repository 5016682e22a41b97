import type { BackendProviderV1, ProviderBackend } from '@runtimectl/core';
import { CallDeadline } from './call-deadline';

/** How often each provider method was called (through the observed wrapper). */
export interface ProviderCallCounts {
  create: number;
  attach: number;
  release: number;
  checkpoint: number;
  checkout: number;
  deleteSnapshot: number;
}

export interface ObservedProvider {
  /** Delegates to the provider under test; has exactly the same optional methods. */
  provider: BackendProviderV1;
  calls: ProviderCallCounts;
  /** Snapshot ids made through the wrapper and not deleted through it since (to clean up). */
  liveSnapshotIds: Set<string>;
}

/**
 * Each backend method through `deadline` (named `backend.<method>`); the provider under test
 * gets the backend it made back (`unwrap`), so it may rely on its own class.
 */
function backendObserver(deadline: CallDeadline) {
  const inners = new WeakMap<ProviderBackend, ProviderBackend>();
  const wrap = (backend: ProviderBackend): ProviderBackend => {
    const observed = new Proxy(backend, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => deadline.settle(`backend.${String(key)}`, () => Reflect.apply(value, target, args) as Promise<unknown>);
      },
    });
    inners.set(observed, backend);
    return observed;
  };
  return { wrap, unwrap: (backend: ProviderBackend) => inners.get(backend) ?? backend };
}

/**
 * Wraps a provider to count its calls, so tests can prove that core did *not* call it (a reused
 * checkpoint, a refused checkout), and to fail a call that hangs naming it (`deadline`). Optional
 * methods and declarations are copied only when the provider has them, so
 * `providerCapabilities` of the wrapper equals that of the provider.
 */
export function observeProvider(inner: BackendProviderV1, deadline = new CallDeadline()): ObservedProvider {
  const calls: ProviderCallCounts = { create: 0, attach: 0, release: 0, checkpoint: 0, checkout: 0, deleteSnapshot: 0 };
  const liveSnapshotIds = new Set<string>();
  const backends = backendObserver(deadline);
  /** Counts the call (when counted) and runs it under the deadline. */
  const call = <T>(name: string, work: () => Promise<T>): Promise<T> => {
    if (name in calls) calls[name as keyof ProviderCallCounts] += 1;
    return deadline.settle(name, work);
  };
  const provider: BackendProviderV1 = {
    specificationVersion: inner.specificationVersion,
    providerId: inner.providerId,
    ...(inner.runtimeOptionsSchema ? { runtimeOptionsSchema: inner.runtimeOptionsSchema } : {}),
    ...(inner.locality ? { locality: inner.locality } : {}),
    ...(inner.snapshotKind ? { snapshotKind: inner.snapshotKind } : {}),
    ...(inner.restoreVerification ? { restoreVerification: inner.restoreVerification } : {}),
    create: (request) => call('create', () => inner.create(request)).then(backends.wrap),
    attach: (request) => call('attach', () => inner.attach(request)).then(backends.wrap),
    release: (request) => call('release', () => inner.release(request)),
  };
  if (typeof inner.checkpoint === 'function') {
    provider.checkpoint = async (backend, request) => {
      const snapshot = await call('checkpoint', () => inner.checkpoint!(backends.unwrap(backend), request));
      liveSnapshotIds.add(snapshot.snapshotId);
      return snapshot;
    };
  }
  if (typeof inner.checkout === 'function') {
    provider.checkout = (request) => call('checkout', () => inner.checkout!(request)).then(backends.wrap);
  }
  if (typeof inner.deleteSnapshot === 'function') {
    provider.deleteSnapshot = async (snapshotId) => {
      const result = await call('deleteSnapshot', () => inner.deleteSnapshot!(snapshotId));
      liveSnapshotIds.delete(snapshotId);
      return result;
    };
  }
  if (typeof inner.readSnapshotFile === 'function') {
    provider.readSnapshotFile = (snapshotId, path, options) => call('readSnapshotFile', () => inner.readSnapshotFile!(snapshotId, path, options));
  }
  if (typeof inner.listOwnedResources === 'function') {
    provider.listOwnedResources = (installationId) => call('listOwnedResources', () => inner.listOwnedResources!(installationId));
  }
  if (typeof inner.keepAlive === 'function') provider.keepAlive = (resources) => inner.keepAlive!(resources);
  return { provider, calls, liveSnapshotIds };
}
