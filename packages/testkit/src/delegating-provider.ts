import type { BackendProviderV1 } from '@runtimectl/core';

/**
 * A provider that forwards every call to `inner` except those in `overrides`: for tests that
 * slow down, gate or fail one call of a real provider. Optional methods are forwarded only when
 * `inner` has them, so the wrapper's capabilities are `inner`'s (plus what `overrides` adds).
 */
export function delegatingProvider(inner: BackendProviderV1, overrides: Partial<BackendProviderV1> = {}): BackendProviderV1 {
  const forwarded: BackendProviderV1 = {
    specificationVersion: inner.specificationVersion,
    providerId: inner.providerId,
    ...(inner.runtimeOptionsSchema ? { runtimeOptionsSchema: inner.runtimeOptionsSchema } : {}),
    ...(inner.snapshotKind ? { snapshotKind: inner.snapshotKind } : {}),
    ...(inner.restoreVerification ? { restoreVerification: inner.restoreVerification } : {}),
    create: (request) => inner.create(request),
    attach: (request) => inner.attach(request),
    release: (request) => inner.release(request),
    ...(inner.checkpoint ? { checkpoint: (backend, request) => inner.checkpoint!(backend, request) } : {}),
    ...(inner.checkout ? { checkout: (request) => inner.checkout!(request) } : {}),
    ...(inner.restoredExactly ? { restoredExactly: (backend, snapshotId) => inner.restoredExactly!(backend, snapshotId) } : {}),
    ...(inner.deleteSnapshot ? { deleteSnapshot: (snapshotId) => inner.deleteSnapshot!(snapshotId) } : {}),
    ...(inner.readSnapshotFile ? { readSnapshotFile: (snapshotId, path, options) => inner.readSnapshotFile!(snapshotId, path, options) } : {}),
    ...(inner.listOwnedResources ? { listOwnedResources: (installationId) => inner.listOwnedResources!(installationId) } : {}),
  };
  return { ...forwarded, ...overrides };
}
