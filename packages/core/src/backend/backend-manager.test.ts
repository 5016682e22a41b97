import { describe, expect, it } from 'vitest';
import { createMemoryProvider } from '@runtimectl/testkit';
import type { BackendProviderV1 } from '@runtimectl/provider';
import { ProviderRegistry } from '../provider/provider-registry';
import { MemoryRuntimeStore } from '../store/memory-store';
import type { BackendBinding, SessionRecord } from '../store/records';
import { createIdGenerator } from '../runtime/ids';
import { BackendManager, type BackendManagerOptions } from './backend-manager';
import { ProviderCalls } from './provider-calls';
import { OperationLeases, SnapshotGuard } from './snapshot-guard';
import { RuntimeLeases } from '../runtime/runtime-leases';

function setup() {
  const provider = createMemoryProvider();
  const store = new MemoryRuntimeStore();
  const options: BackendManagerOptions = {
    registry: new ProviderRegistry([provider]),
    store,
    calls: new ProviderCalls(() => {}),
    guard: new SnapshotGuard(new RuntimeLeases(store, 'node-test', 5_000)),
    ids: createIdGenerator(),
    clock: Date.now,
    timeouts: { controlMs: 5_000, operationMs: 5_000, execGraceMs: 1_000 },
    installationId: () => 'test-install',
    nodeId: 'node-test',
  };
  const manager = new BackendManager(options);
  const session = (runtimeId: string, backend: BackendBinding): SessionRecord => ({
    runtimeId,
    conversationId: 'c',
    senderId: 's',
    status: 'idle',
    providerId: 'memory',
    providerOptions: {},
    backend,
    sessionState: null,
    metadata: {},
    parentRuntimeId: null,
    forkedFromCheckpointId: null,
    headCheckpointId: null,
    pausedCheckpointId: null,
    lastError: null,
    keepSnapshots: false,
    createdAtMs: 1,
    updatedAtMs: 1,
  });
  return { provider, store, manager, options, session };
}

describe('BackendManager', () => {
  it('releases a shared backend only when no runtime remains bound to it', async () => {
    const { provider, store, manager, session } = setup();
    const binding = await manager.create('a', 'memory', {});
    await store.commit({ sessions: [session('a', binding), session('b', binding)] });
    expect(await manager.release('a', binding)).toBe(false);
    expect(provider.liveBackendIds()).toHaveLength(1);
    await store.commit({ sessions: [{ ...session('a', binding), status: 'closed', backend: null }] });
    expect(await manager.release('b', binding)).toBe(true);
    expect(provider.liveBackendIds()).toEqual([]);
  });

  it('labels provider resources with the installation, runtime and backend ids', async () => {
    const labels: Record<string, string>[] = [];
    const { options } = setup();
    const inner = createMemoryProvider();
    const spy: BackendProviderV1 = {
      specificationVersion: 'backend-provider-v1',
      providerId: 'spy',
      create: async (request) => (labels.push(request.labels), inner.create(request)),
      attach: (request) => inner.attach(request),
      release: (request) => inner.release(request),
    };
    const registry = new ProviderRegistry([spy]);
    const labelled = new BackendManager({ ...options, registry });
    const binding = await labelled.create('runtime-9', 'spy', {});
    expect(labels[0]).toEqual({
      runtimectl_installation: 'test-install',
      runtimectl_runtime_id: 'runtime-9',
      runtimectl_backend_id: binding.backendId,
    });
  });

  it('reuses the clean ref it is given without a provider call, and snapshots when given none', async () => {
    const { manager, provider } = setup();
    const binding = await manager.create('a', 'memory', {});
    const first = await manager.checkpoint('a', binding, undefined, new OperationLeases(), null);
    expect(first.reused).toBe(false);
    const second = await manager.checkpoint('a', binding, undefined, new OperationLeases(), first.ref);
    expect(second).toEqual({ ref: first.ref, reused: true, skipped: [], manifest: null, manifestDelta: null });
    expect(provider.calls.checkpoint).toBe(1);
  });

  it('concurrent first uses after a restart attach the backend once', async () => {
    const { provider, manager, options } = setup();
    const binding = await manager.create('a', 'memory', {});
    const fresh = new BackendManager(options);
    const [one, two] = await Promise.all([fresh.backendOf(binding), fresh.backendOf(binding)]);
    expect(one).toBe(two);
    expect(provider.calls.attach).toBe(1);
  });
});
