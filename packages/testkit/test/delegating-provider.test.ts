import { providerCapabilities, type BackendProviderV1 } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { createMemoryProvider, delegatingProvider } from '../src';

describe('delegatingProvider', () => {
  it('forwards every call it does not override, and keeps the provider’s capabilities', async () => {
    const inner = createMemoryProvider();
    let checkouts = 0;
    const provider = delegatingProvider(inner, {
      checkout: (request) => {
        checkouts += 1;
        return inner.checkout!(request);
      },
    });
    expect(providerCapabilities(provider)).toEqual(providerCapabilities(inner));
    const labels = { runtimectl_installation: 'i', runtimectl_runtime_id: 'r', runtimectl_backend_id: 'b', runtimectl_ref_id: 'f' };
    const backend = await provider.create({ backendId: 'b', runtimeId: 'r', labels, options: {} });
    expect(inner.liveBackendIds()).toHaveLength(1);
    const snapshot = await provider.checkpoint!(backend, { labels });
    await provider.checkout!({ snapshotId: snapshot.snapshotId, backendId: 'c', runtimeId: 'r2', labels, options: {} });
    expect(checkouts).toBe(1);
    expect(inner.liveBackendIds()).toHaveLength(2);
  });

  it('adds no optional method the provider lacks', () => {
    const memory = createMemoryProvider();
    const plain: BackendProviderV1 = {
      specificationVersion: 'backend-provider-v1',
      providerId: 'plain',
      create: (request) => memory.create(request),
      attach: (request) => memory.attach(request),
      release: (request) => memory.release(request),
    };
    const provider = delegatingProvider(plain);
    expect(providerCapabilities(provider)).toEqual(providerCapabilities(plain));
    expect([provider.checkpoint, provider.checkout, provider.deleteSnapshot, provider.listOwnedResources]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
