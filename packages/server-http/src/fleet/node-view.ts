import type { NodeView } from '@runtimectl/core';
import type { FleetNode } from '@runtimectl/core';

/** A fleet node in the wire's snake_case shape. */
export function toNodeView(node: FleetNode): NodeView {
  return {
    node_id: node.nodeId,
    advertise_url: node.advertiseUrl,
    version: node.version,
    started_at_ms: node.startedAtMs,
    last_heartbeat_at_ms: node.heartbeatAtMs,
    alive: node.alive,
    runtimes: node.runtimes,
  };
}
