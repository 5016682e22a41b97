import { RuntimectlError } from '@runtimectl/provider';

/**
 * The runtime's lease lapsed while the operation ran (the node stalled, or lost its store for
 * longer than the lease), so the store refused its commit (fencing): another node may own the
 * runtime now. Nothing of the operation was committed; provider work it did is left to
 * reconciliation. Safe to send again.
 */
export class LeaseLostError extends RuntimectlError {
  constructor(readonly runtimeId: string) {
    super('lease_lost', `runtime ${runtimeId}: this node's lease lapsed before the operation could commit; nothing was committed, retry`, {
      details: { runtime_id: runtimeId },
    });
  }
}

/**
 * The runtime's backend lives on another node's machine (node-local providers) and this node
 * could not forward the request there (forwarding off, or that node is down).
 */
export class RuntimeOnOtherNodeError extends RuntimectlError {
  constructor(
    readonly runtimeId: string,
    readonly node: { nodeId: string; url: string | null; alive: boolean },
  ) {
    super(
      'runtime_on_other_node',
      `runtime ${runtimeId} is served by node ${node.nodeId}${node.alive ? '' : ', which is down'}; send the request there${node.url ? ` (${node.url})` : ''}`,
      { details: { runtime_id: runtimeId, node_id: node.nodeId, node_url: node.url, node_alive: node.alive } },
    );
  }
}

/**
 * The runtime's backend lives on another node, this node forwarded (or was about to forward)
 * the request there, and no answer came from that node as itself: nothing answered, or what
 * answered at its advertised URL could not prove it is that node (fleet peers authenticate
 * each other, so an impostor at the address is never sent the request nor believed). The
 * request may or may not have run there when it was sent and its answer lost: retry with the
 * same Idempotency-Key.
 */
export class NodeUnreachableError extends RuntimectlError {
  constructor(
    readonly runtimeId: string,
    readonly node: { nodeId: string; url: string },
    readonly reason: string,
  ) {
    super('node_unreachable', `runtime ${runtimeId} is served by node ${node.nodeId}, which did not answer as itself at ${node.url}: ${reason}; retry shortly`, {
      details: { runtime_id: runtimeId, node_id: node.nodeId, node_url: node.url },
    });
  }
}
