import type { BackendProviderV1 } from '@runtimectl/core';

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
 * Wraps a provider to count its calls, so tests can prove that core did *not* call it (a reused
 * checkpoint, a refused checkout). Optional methods are copied only when the provider has them,
 * so `providerCapabilities` of the wrapper equals that of the provider.
 */
export function observeProvider(inner: BackendProviderV1): ObservedProvider {
  const calls: ProviderCallCounts = { create: 0, attach: 0, release: 0, checkpoint: 0, checkout: 0, deleteSnapshot: 0 };
  const liveSnapshotIds = new Set<string>();
  const provider: BackendProviderV1 = {
    specificationVersion: inner.specificationVersion,
    providerId: inner.providerId,
    ...(inner.runtimeOptionsSchema ? { runtimeOptionsSchema: inner.runtimeOptionsSchema } : {}),
    ...(inner.snapshotKind ? { snapshotKind: inner.snapshotKind } : {}),
    create: (request) => {
      calls.create += 1;
      return inner.create(request);
    },
    attach: (request) => {
      calls.attach += 1;
      return inner.attach(request);
    },
    release: (request) => {
      calls.release += 1;
      return inner.release(request);
    },
  };
  if (typeof inner.checkpoint === 'function') {
    provider.checkpoint = async (backend, request) => {
      calls.checkpoint += 1;
      const snapshot = await inner.checkpoint!(backend, request);
      liveSnapshotIds.add(snapshot.snapshotId);
      return snapshot;
    };
  }
  if (typeof inner.checkout === 'function') {
    provider.checkout = (request) => {
      calls.checkout += 1;
      return inner.checkout!(request);
    };
  }
  if (typeof inner.deleteSnapshot === 'function') {
    provider.deleteSnapshot = async (snapshotId) => {
      calls.deleteSnapshot += 1;
      const result = await inner.deleteSnapshot!(snapshotId);
      liveSnapshotIds.delete(snapshotId);
      return result;
    };
  }
  if (typeof inner.readSnapshotFile === 'function') {
    provider.readSnapshotFile = (snapshotId, path, options) => inner.readSnapshotFile!(snapshotId, path, options);
  }
  if (typeof inner.listOwnedResources === 'function') {
    provider.listOwnedResources = (installationId) => inner.listOwnedResources!(installationId);
  }
  return { provider, calls, liveSnapshotIds };
}
