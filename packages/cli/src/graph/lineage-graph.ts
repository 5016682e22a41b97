import type { CheckpointView, RuntimeDetail } from '@runtimectl/core';
import type { Colors } from '../output/colors';
import { formatStatus } from '../output/render-records';
import { formatRelativeTime } from '../output/relative-time';

/** What `log --graph` draws: a runtime, every runtime checked out from it (recursively), and their checkpoints. */
export interface LineageInput {
  rootRuntimeId: string;
  runtimes: RuntimeDetail[];
  /** Every checkpoint of those runtimes, in any order. */
  checkpoints: CheckpointView[];
}

export interface LineageRenderOptions {
  nowMs: number;
  colors: Colors;
}

interface NodeBase {
  key: string;
  runtimeId: string;
  /** When the node's runtime was opened: branches are ordered by it. */
  runtimeCreatedAtMs: number;
}

type GraphNode = (NodeBase & { kind: 'runtime'; runtime: RuntimeDetail }) | (NodeBase & { kind: 'checkpoint'; checkpoint: CheckpointView });

interface NodeLinks {
  node: GraphNode;
  /** The child on the same runtime: drawn above in the same lane. */
  main: NodeLinks | undefined;
  /** Children on other runtimes (checkouts): drawn in a lane to the right, newest first. */
  branches: NodeLinks[];
}

/**
 * Renders the lineage as `git log --graph --topo-order` would: newest at the top, each
 * runtime's live state as `@` above its checkpoints (`*`), and every checkout as a lane that
 * joins its source checkpoint with `|/`. Pure: the same input gives the same lines.
 */
export function renderLineageGraph(input: LineageInput, options: LineageRenderOptions): string[] {
  const lines: string[] = [];
  for (const root of buildForest(input)) drawSubtree(root, 0, lines, options);
  return lines;
}

function drawSubtree(bottom: NodeLinks, lane: number, lines: string[], options: LineageRenderOptions): void {
  // The lane's own chain, tip first; recursion happens only per branch, so a long chain of
  // checkpoints never deepens the stack.
  const chain: NodeLinks[] = [];
  for (let links: NodeLinks | undefined = bottom; links; links = links.main) chain.unshift(links);
  const passThrough = '| '.repeat(lane);
  for (const links of chain) {
    for (const branch of links.branches) {
      drawSubtree(branch, lane + 1, lines, options);
      lines.push(`${passThrough}|/`);
    }
    lines.push(`${passThrough}${describeNode(links.node, options)}`);
  }
}

function describeNode(node: GraphNode, { nowMs, colors }: LineageRenderOptions): string {
  if (node.kind === 'runtime') {
    const { runtime } = node.runtime;
    return `${colors.bold('@')} ${colors.bold(runtime.runtime_id)}  ${formatStatus(runtime.status, colors)}  opened ${formatRelativeTime(runtime.created_at_ms, nowMs)}`;
  }
  const { checkpoint } = node;
  const kind = checkpoint.kind === 'pause' ? colors.cyan('pause') : 'checkpoint';
  const name = checkpoint.name === null ? '' : ` "${checkpoint.name}"`;
  const snapshot = checkpoint.has_provider_snapshot ? '' : colors.dim('  (no snapshot)');
  return `${colors.yellow('*')} ${colors.yellow(checkpoint.checkpoint_id)}  ${kind}${name}  ${formatRelativeTime(checkpoint.created_at_ms, nowMs)}${snapshot}`;
}

/** Links every node to its parent: checkpoints by parent_checkpoint_id, a runtime's `@` to its head. */
function buildForest(input: LineageInput): NodeLinks[] {
  const byKey = new Map<string, NodeLinks>();
  const parentOf = new Map<string, string | null>();
  const detailsById = new Map(input.runtimes.map((detail) => [detail.runtime.runtime_id, detail]));
  const createdAtMs = (runtimeId: string) => detailsById.get(runtimeId)?.runtime.created_at_ms ?? 0;
  // Checkpoint ids are time-ordered, so the smallest and largest id are the oldest and newest.
  const oldestOwn = new Map<string, string>();
  const newestOwn = new Map<string, string>();
  for (const { runtime_id: runtimeId, checkpoint_id: id } of input.checkpoints) {
    if (!oldestOwn.has(runtimeId) || id < oldestOwn.get(runtimeId)!) oldestOwn.set(runtimeId, id);
    if (!newestOwn.has(runtimeId) || id > newestOwn.get(runtimeId)!) newestOwn.set(runtimeId, id);
  }

  for (const checkpoint of input.checkpoints) {
    const runtimeId = checkpoint.runtime_id;
    const node: GraphNode = { key: checkpoint.checkpoint_id, runtimeId, runtimeCreatedAtMs: createdAtMs(runtimeId), kind: 'checkpoint', checkpoint };
    byKey.set(node.key, { node, main: undefined, branches: [] });
    // A checkout child's first checkpoint names the checkpoint it came from; fall back to the
    // runtime's record in case a daemon leaves that out.
    const fallback = oldestOwn.get(runtimeId) === checkpoint.checkpoint_id ? (detailsById.get(runtimeId)?.forked_from_checkpoint_id ?? null) : null;
    parentOf.set(node.key, checkpoint.parent_checkpoint_id ?? fallback);
  }
  for (const detail of input.runtimes) {
    const runtimeId = detail.runtime.runtime_id;
    const node: GraphNode = { key: `runtime:${runtimeId}`, runtimeId, runtimeCreatedAtMs: detail.runtime.created_at_ms, kind: 'runtime', runtime: detail };
    byKey.set(node.key, { node, main: undefined, branches: [] });
    const head = detail.head_checkpoint_id !== null && byKey.has(detail.head_checkpoint_id) ? detail.head_checkpoint_id : newestOwn.get(runtimeId);
    parentOf.set(node.key, head ?? detail.forked_from_checkpoint_id);
  }

  const roots: NodeLinks[] = [];
  for (const links of byKey.values()) {
    const parentKey = parentOf.get(links.node.key) ?? null;
    const parent = parentKey === null ? undefined : byKey.get(parentKey);
    if (!parent) roots.push(links);
    else if (parent.node.runtimeId === links.node.runtimeId && parent.main === undefined) parent.main = links;
    else parent.branches.push(links);
  }
  for (const links of byKey.values()) links.branches.sort(newestFirst);
  // The starting runtime's tree first, then anything whose parent is outside the input.
  return roots.sort((a, b) => Number(b.node.runtimeId === input.rootRuntimeId) - Number(a.node.runtimeId === input.rootRuntimeId) || newestFirst(a, b));
}

/** Branches (and roots) by the time their runtime was opened, newest first; ids break ties. */
function newestFirst(a: NodeLinks, b: NodeLinks): number {
  return b.node.runtimeCreatedAtMs - a.node.runtimeCreatedAtMs || (a.node.runtimeId < b.node.runtimeId ? 1 : a.node.runtimeId > b.node.runtimeId ? -1 : 0);
}
