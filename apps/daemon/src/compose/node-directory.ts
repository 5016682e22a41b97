import type { NodeRecord, NodeStore, RuntimeStore, SessionStore } from '@runtimectl/core';
import type { FleetNode, NodeDirectory } from '@runtimectl/server-http';

const PAGE = 500;

/** Runtimes not closed, by the node they are home to (runtimes every node serves count for none). */
async function countRuntimesByHomeNode(sessions: Pick<SessionStore, 'listSessions'>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await sessions.listSessions({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const session of page.items) {
      if (session.status === 'closed' || !session.homeNodeId) continue;
      counts.set(session.homeNodeId, (counts.get(session.homeNodeId) ?? 0) + 1);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return counts;
}

/**
 * The fleet's nodes as the server shows and uses them: a node is alive while its last heartbeat
 * is within `leaseMs` of the store's clock now (never this machine's clock).
 */
export function createNodeDirectory(
  store: Pick<NodeStore, 'listNodes' | 'storeTimeMs'> & Pick<SessionStore, 'listSessions'>,
  leaseMs: number,
): NodeDirectory {
  return {
    storeTimeMs: () => store.storeTimeMs(),
    async nodes(): Promise<FleetNode[]> {
      const [nodes, nowMs, runtimes] = await Promise.all([store.listNodes(), store.storeTimeMs(), countRuntimesByHomeNode(store)]);
      return nodes.map((node) => ({ ...node, alive: node.heartbeatAtMs + leaseMs > nowMs, runtimes: runtimes.get(node.nodeId) ?? 0 }));
    },
  };
}

/**
 * The store's node registry; for a store that has none yet (before the fleet stores land), this
 * daemon alone, heartbeating as long as it runs, and a store round trip as its clock.
 */
export function nodeRegistryOf(
  store: RuntimeStore,
  self: Omit<NodeRecord, 'heartbeatAtMs'>,
): Pick<NodeStore, 'listNodes' | 'storeTimeMs'> & Pick<SessionStore, 'listSessions'> {
  const registry = store as RuntimeStore & Partial<NodeStore>;
  if (typeof registry.listNodes === 'function' && typeof registry.storeTimeMs === 'function') {
    return registry as RuntimeStore & NodeStore;
  }
  return {
    listSessions: (query) => store.listSessions(query),
    listNodes: async () => [{ ...self, heartbeatAtMs: Date.now() }],
    storeTimeMs: async () => {
      await store.getSession('store-probe');
      return Date.now();
    },
  };
}
