import type { LineageNode } from './build-lineage-tree';
import { shortId } from '../format/short-id';

/** The accessible name of a node: "<kind> <name or short id> <checkpoint_id>" for checkpoints. */
export function nodeAccessibleName(node: LineageNode): string {
  if (node.kind === 'checkpoint') {
    const checkpoint = node.checkpoint;
    return `${checkpoint.kind} ${checkpoint.name || shortId(checkpoint.checkpoint_id)} ${checkpoint.checkpoint_id}`;
  }
  if (node.kind === 'live') return `live ${node.runtime.runtime_id} ${node.runtime.status}`;
  return `origin of ${node.runtimeId}`;
}

/** The text drawn beside a node, kept short so columns do not overlap. */
export function nodeVisibleLabel(node: LineageNode): string {
  const text = node.kind === 'checkpoint' ? node.checkpoint.name || shortId(node.checkpoint.checkpoint_id) : node.kind === 'live' ? `${node.runtime.runtime_id} · ${node.runtime.status}` : node.runtimeId;
  return text.length > 20 ? `${text.slice(0, 19)}…` : text;
}
