import { StoreUnavailableError } from '@runtimectl/core';
import type { FleetNode, NodeDirectory, NodeState } from '../src/index';

/** The fleet's node registry as a test arranges it: nodes added by hand, the store made to hang or fail. */
export class FakeNodeDirectory implements NodeDirectory {
  readonly #nodes = new Map<string, FleetNode>();
  /** What the store does when readiness asks it the time. */
  store: 'answers' | 'hangs' | 'fails' = 'answers';

  add(nodeId: string, node: { url?: string | null; alive?: boolean; runtimes?: number } = {}): FleetNode {
    const record: FleetNode = {
      nodeId,
      advertiseUrl: node.url ?? null,
      version: '9.9.9-test',
      startedAtMs: 1_800_000_000_000,
      heartbeatAtMs: 1_800_000_005_000,
      alive: node.alive ?? true,
      runtimes: node.runtimes ?? 0,
    };
    this.#nodes.set(nodeId, record);
    return record;
  }

  /** How often the listing with runtime counts (GET /nodes only) was asked for. */
  countingListings = 0;

  async nodes(): Promise<FleetNode[]> {
    this.countingListings += 1;
    return [...this.#nodes.values()];
  }

  async nodeStates(): Promise<NodeState[]> {
    return [...this.#nodes.values()].map(({ runtimes: _, ...state }) => state);
  }

  storeTimeMs(): Promise<number> {
    if (this.store === 'hangs') return new Promise<number>(() => {});
    if (this.store === 'fails') return Promise.reject(new StoreUnavailableError('connection refused'));
    return Promise.resolve(Date.now());
  }
}
