import type { NodeRecord, NodeStore } from '../store/fleet-store';
import type { ServiceContext } from '../runtime/service-context';

/** A node of the fleet and whether it is alive: what the request path asks (`RuntimeService.nodeStates()`), one store round trip. */
export interface NodeState extends NodeRecord {
  /** Its heartbeat is younger than the lease time (`heartbeatAtMs + leaseMs > store time`). */
  alive: boolean;
}

/** A node of the fleet as `RuntimeService.nodes()` reports it (GET /nodes). */
export interface FleetNode extends NodeState {
  /** Runtimes, not closed, whose home it is (node-local providers); runtimes on fleet-wide providers have none. */
  runtimes: number;
}

/** Whether each registered node is alive, judged on the store's clock with this node's lease time. */
export async function nodeLiveness(store: NodeStore, leaseMs: number): Promise<Map<string, NodeState>> {
  const [nodes, now] = await Promise.all([store.listNodes(), store.storeTimeMs()]);
  return new Map(nodes.map((node) => [node.nodeId, { ...node, alive: node.heartbeatAtMs + leaseMs > now }]));
}

/** Every node with whether it is alive and how many runtimes it is home of (one count query). */
export async function listFleetNodes(ctx: ServiceContext): Promise<FleetNode[]> {
  const [nodes, homed] = await Promise.all([nodeLiveness(ctx.store, ctx.node.leaseMs), ctx.store.countSessionsByHomeNode()]);
  return [...nodes.values()].map((node) => ({ ...node, runtimes: homed[node.nodeId] ?? 0 }));
}
