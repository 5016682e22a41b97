import { MemoryRuntimeStore, RuntimeService, type BackendProviderV1, type RuntimeServiceOptions, type StoreBatch } from '@runtimectl/core';
import { createMemoryProvider, type MemoryProvider } from '@runtimectl/testkit';
import { expect } from 'vitest';
import { createGate, rejectionOf } from './harness';

/** The memory provider as every node reaches it (like E2B): one instance shared by the nodes. */
export function asFleetProvider(provider: BackendProviderV1): BackendProviderV1 {
  return new Proxy(provider, {
    get(target, key) {
      if (key === 'locality') return 'fleet';
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as BackendProviderV1;
}

/**
 * A memory store whose clock a test moves forward (leases lapse, nodes die), and which counts
 * commits and can let a lease lapse just before the next commit carrying sessions (a node that
 * stalled mid-operation).
 */
export class FleetStore extends MemoryRuntimeStore {
  skewMs = 0;
  commits: StoreBatch[] = [];
  #lapseBeforeNextSessionCommit = 0;

  constructor() {
    let store: FleetStore | undefined;
    super({ clock: () => Date.now() + (store?.skewMs ?? 0) });
    store = this;
  }

  /** Moves the store's clock by `ms` when the next commit carrying sessions arrives. */
  lapseBeforeNextSessionCommit(ms: number): void {
    this.#lapseBeforeNextSessionCommit = ms;
  }

  override async commit(batch: StoreBatch): Promise<void> {
    if (this.#lapseBeforeNextSessionCommit > 0 && (batch.sessions?.length ?? 0) > 0) {
      this.skewMs += this.#lapseBeforeNextSessionCommit;
      this.#lapseBeforeNextSessionCommit = 0;
    }
    this.commits.push(batch);
    return super.commit(batch);
  }
}

export const LEASE_MS = 1_000;

/** Nodes (services with their own node id) on one store, sharing one fleet-wide memory provider. */
export function createFleet(options: Partial<RuntimeServiceOptions> = {}) {
  const gate = createGate();
  const provider = createMemoryProvider({
    execHandler: async (request) => {
      if (request.command !== 'block') return undefined;
      gate.enter();
      await gate.opened;
      return { stdout: 'unblocked\n' };
    },
  });
  const store = new FleetStore();
  const node = (nodeId: string, providers: BackendProviderV1[] = [asFleetProvider(provider)]) =>
    new RuntimeService({ store, providers, defaultProvider: 'memory', node: { nodeId, leaseMs: LEASE_MS }, ...options });
  return { store, provider, gate, node };
}

export async function openOn(service: RuntimeService): Promise<string> {
  return (await service.open({ conversation_id: 'c', sender_id: 's' })).runtime.runtime_id;
}

export async function writeOn(service: RuntimeService, runtimeId: string, path: string, text: string): Promise<void> {
  await service.writeFile({ runtime_id: runtimeId, path, content_base64: Buffer.from(text).toString('base64') });
}

/**
 * Node `node` opens a runtime and "crashes" between the provider's create and the commit: an
 * open intent and a backend no record binds are left behind.
 */
export async function crashedOpen(fleet: ReturnType<typeof createFleet>, node: RuntimeService): Promise<void> {
  const commit = fleet.store.commit.bind(fleet.store);
  fleet.store.commit = async (batch: StoreBatch) => {
    if ((batch.sessions?.length ?? 0) > 0) {
      fleet.store.commit = commit;
      throw new Error('simulated crash before commit');
    }
    return commit(batch);
  };
  const before = fleet.provider.liveBackendIds().length;
  fleet.provider.failNext('release');
  await rejectionOf(node.open({ conversation_id: 'c', sender_id: 's' }));
  expect(fleet.provider.liveBackendIds()).toHaveLength(before + 1);
}
