import type { CheckpointView, RuntimeDetail } from '@runtimectl/core';
import type { LineageInput } from './lineage-graph';

/** `log --graph --json`: a runtime, its checkpoints (newest first) and its checkouts, recursively. */
export interface LineageTree {
  runtime: RuntimeDetail;
  checkpoints: CheckpointView[];
  children: LineageTree[];
}

/** Nests the runtimes by parent_runtime_id under the starting runtime; children oldest first. */
export function buildLineageTree(input: LineageInput): LineageTree {
  const byParent = new Map<string, RuntimeDetail[]>();
  for (const detail of input.runtimes) {
    if (detail.parent_runtime_id === null) continue;
    byParent.set(detail.parent_runtime_id, [...(byParent.get(detail.parent_runtime_id) ?? []), detail]);
  }
  const treeOf = (detail: RuntimeDetail): LineageTree => ({
    runtime: detail,
    checkpoints: input.checkpoints
      .filter((checkpoint) => checkpoint.runtime_id === detail.runtime.runtime_id)
      .sort((a, b) => (a.checkpoint_id < b.checkpoint_id ? 1 : -1)),
    children: (byParent.get(detail.runtime.runtime_id) ?? [])
      .sort((a, b) => a.runtime.created_at_ms - b.runtime.created_at_ms || (a.runtime.runtime_id < b.runtime.runtime_id ? -1 : 1))
      .map(treeOf),
  });
  const root = input.runtimes.find((detail) => detail.runtime.runtime_id === input.rootRuntimeId);
  if (!root) throw new Error(`the lineage input lacks its root runtime ${input.rootRuntimeId}`);
  return treeOf(root);
}
