import type { CheckpointView, RuntimeRecord } from '../api/api-types';

/** A node of the drawn tree: the lineage's origin, a checkpoint, or a runtime's live head. */
export type LineageNode =
  | { kind: 'origin'; id: string; runtimeId: string; children: LineageNode[] }
  | { kind: 'checkpoint'; id: string; checkpoint: CheckpointView; children: LineageNode[] }
  | { kind: 'live'; id: string; runtime: RuntimeRecord; children: LineageNode[] };

export const ORIGIN_NODE_ID = 'origin';

export function liveNodeId(runtimeId: string): string {
  return `live:${runtimeId}`;
}

/** Checkpoint ids are time-ordered, so id order is creation order (docs/http-api.md). */
function byId(left: { id: string }, right: { id: string }): number {
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/**
 * Builds the tree to draw from the API's flat lists. Checkpoints hang from their parent
 * checkpoint (a checkout child's first checkpoint's parent is the checkpoint it came from, so
 * branches join by themselves); a checkpoint whose parent is unknown hangs from its runtime's
 * `forked_from_checkpoint_id`, else from the origin. Each runtime's live head hangs from its newest
 * checkpoint, or the checkpoint it was checked out from. Built without recursion: a chain of
 * thousands of checkpoints must not overflow the stack.
 */
export function buildLineageTree(rootRuntimeId: string, runtimes: RuntimeRecord[], checkpoints: CheckpointView[]): LineageNode {
  const origin: LineageNode = { kind: 'origin', id: ORIGIN_NODE_ID, runtimeId: rootRuntimeId, children: [] };
  const nodes = new Map<string, LineageNode>([[ORIGIN_NODE_ID, origin]]);
  for (const checkpoint of checkpoints) {
    nodes.set(checkpoint.checkpoint_id, { kind: 'checkpoint', id: checkpoint.checkpoint_id, checkpoint, children: [] });
  }
  const runtimesById = new Map(runtimes.map((runtime) => [runtime.runtime_id, runtime]));
  const newestOfRuntime = new Map<string, string>();
  for (const checkpoint of checkpoints) {
    const newest = newestOfRuntime.get(checkpoint.runtime_id);
    if (newest === undefined || checkpoint.checkpoint_id > newest) newestOfRuntime.set(checkpoint.runtime_id, checkpoint.checkpoint_id);
  }

  function attach(child: LineageNode, parentId: string | null | undefined): void {
    const parent = (parentId && parentId !== child.id ? nodes.get(parentId) : undefined) ?? origin;
    parent.children.push(child);
  }

  for (const checkpoint of checkpoints) {
    const node = nodes.get(checkpoint.checkpoint_id) as LineageNode;
    const forkedFrom = runtimesById.get(checkpoint.runtime_id)?.forked_from_checkpoint_id;
    const parentId = checkpoint.parent_checkpoint_id && nodes.has(checkpoint.parent_checkpoint_id) ? checkpoint.parent_checkpoint_id : forkedFrom;
    attach(node, parentId);
  }
  for (const runtime of runtimes) {
    const live: LineageNode = { kind: 'live', id: liveNodeId(runtime.runtime_id), runtime, children: [] };
    attach(live, newestOfRuntime.get(runtime.runtime_id) ?? runtime.forked_from_checkpoint_id);
  }

  breakCycles(origin, nodes);
  for (const node of nodes.values()) {
    // Checkpoints in creation order, live heads after them.
    node.children.sort((left, right) => (left.kind === 'live') === (right.kind === 'live') ? byId(left, right) : left.kind === 'live' ? 1 : -1);
  }
  return origin;
}

/**
 * Parent links that loop (corrupt data) would leave nodes unreachable from the origin: each such
 * node is moved under the origin so every checkpoint is still drawn exactly once.
 */
function breakCycles(origin: LineageNode, nodes: Map<string, LineageNode>): void {
  const reached = new Set<string>();
  const stack: LineageNode[] = [origin];
  while (stack.length > 0) {
    const node = stack.pop() as LineageNode;
    reached.add(node.id);
    stack.push(...node.children);
  }
  for (const node of nodes.values()) {
    if (reached.has(node.id)) continue;
    for (const other of nodes.values()) other.children = other.children.filter((child) => child !== node);
    origin.children.push(node);
    const subtree: LineageNode[] = [node];
    while (subtree.length > 0) {
      const current = subtree.pop() as LineageNode;
      if (reached.has(current.id)) continue;
      reached.add(current.id);
      subtree.push(...current.children);
    }
  }
}
