import { StoreUnavailableError } from '@runtimectl/core';
import type { FleetNode, NodeDirectory } from '../src/index';

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

  async nodes(): Promise<FleetNode[]> {
    return [...this.#nodes.values()];
  }

  storeTimeMs(): Promise<number> {
    if (this.store === 'hangs') return new Promise<number>(() => {});
    if (this.store === 'fails') return Promise.reject(new StoreUnavailableError('connection refused'));
    return Promise.resolve(Date.now());
  }
}
