import { describe, expect, it } from 'vitest';
import type { CheckpointView, RuntimeRecord } from '../api/api-types';
import { buildLineageTree, type LineageNode, liveNodeId } from './build-lineage-tree';
import { layoutLineage } from './layout-lineage';
import { runtimesOfTree } from './tree-members';

function runtime(runtimeId: string, parent: string | null = null, forkedFrom: string | null = null): RuntimeRecord {
  return {
    runtime_id: runtimeId,
    conversation_id: 'c',
    sender_id: 's',
    status: 'idle',
    created_at_ms: 0,
    updated_at_ms: 0,
    provider: 'fs',
    parent_runtime_id: parent,
    forked_from_checkpoint_id: forkedFrom,
    home_node_id: null,
  };
}

function checkpoint(checkpointId: string, runtimeId: string, parent: string | null, kind: 'checkpoint' | 'pause' = 'checkpoint'): CheckpointView {
  return {
    checkpoint_id: checkpointId,
    runtime_id: runtimeId,
    parent_checkpoint_id: parent,
    kind,
    name: null,
    metadata: {},
    created_at_ms: 0,
    provider: 'fs',
    has_provider_snapshot: true,
    manifest_root: null,
    pinned: false,
    last_used_at_ms: null,
  };
}

function childIds(node: LineageNode): string[] {
  return node.children.map((child) => child.id);
}

function find(root: LineageNode, id: string): LineageNode | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as LineageNode;
    if (node.id === id) return node;
    stack.push(...node.children);
  }
  return undefined;
}

describe('runtimesOfTree', () => {
  it('keeps the root and the runtimes whose parent chain reaches it', () => {
    const runtimes = [runtime('root'), runtime('child', 'root'), runtime('grandchild', 'child'), runtime('other'), runtime('orphan', 'missing')];
    expect(runtimesOfTree(runtimes, 'root').map((r) => r.runtime_id)).toEqual(['root', 'child', 'grandchild']);
  });

  it('survives a cyclic parent chain', () => {
    expect(runtimesOfTree([runtime('a', 'b'), runtime('b', 'a'), runtime('root')], 'root').map((r) => r.runtime_id)).toEqual(['root']);
  });
});

describe('buildLineageTree', () => {
  it('chains checkpoints, hangs a branch from the checkpoint it was checked out from, and adds live heads', () => {
    const runtimes = [runtime('root'), runtime('branch', 'root', 'cp_2'), runtime('empty-branch', 'root', 'cp_1')];
    const checkpoints = [checkpoint('cp_1', 'root', null), checkpoint('cp_2', 'root', 'cp_1'), checkpoint('cp_3', 'branch', 'cp_2')];
    const origin = buildLineageTree('root', runtimes, checkpoints);
    expect(childIds(origin)).toEqual(['cp_1']);
    expect(childIds(find(origin, 'cp_1')!)).toEqual(['cp_2', liveNodeId('empty-branch')]);
    expect(childIds(find(origin, 'cp_2')!)).toEqual(['cp_3', liveNodeId('root')]);
    expect(childIds(find(origin, 'cp_3')!)).toEqual([liveNodeId('branch')]);
  });

  it('hangs a checkpoint with an unknown parent from its runtime fork point, else the origin', () => {
    const runtimes = [runtime('root'), runtime('branch', 'root', 'cp_1')];
    const origin = buildLineageTree('root', runtimes, [checkpoint('cp_1', 'root', null), checkpoint('cp_9', 'branch', 'cp_gone')]);
    expect(childIds(find(origin, 'cp_1')!)).toContain('cp_9');
    const lonely = buildLineageTree('root', [runtime('root')], [checkpoint('cp_5', 'root', 'cp_gone')]);
    expect(childIds(lonely)).toEqual(['cp_5']);
  });

  it('draws every checkpoint once even when parent links loop', () => {
    const origin = buildLineageTree('root', [runtime('root')], [checkpoint('cp_a', 'root', 'cp_b'), checkpoint('cp_b', 'root', 'cp_a')]);
    expect(layoutLineage(origin).checkpointCount).toBe(2);
  });
});

describe('layoutLineage', () => {
  it('lays out a chain of a thousand checkpoints left to right without recursion limits', () => {
    const checkpoints = Array.from({ length: 1000 }, (_, index) =>
      checkpoint(`cp_${String(index).padStart(4, '0')}`, 'root', index === 0 ? null : `cp_${String(index - 1).padStart(4, '0')}`),
    );
    const layout = layoutLineage(buildLineageTree('root', [runtime('root')], checkpoints));
    expect(layout.checkpointCount).toBe(1000);
    expect(layout.nodes).toHaveLength(1002);
    const first = layout.positions.get('cp_0000')!;
    const last = layout.positions.get('cp_0999')!;
    expect(last.x).toBeGreaterThan(first.x);
    expect(layout.positions.get(liveNodeId('root'))!.parentId).toBe('cp_0999');
  });

  it('draws an edge into another runtime as a branch edge', () => {
    const runtimes = [runtime('root'), runtime('branch', 'root', 'cp_1')];
    const layout = layoutLineage(buildLineageTree('root', runtimes, [checkpoint('cp_1', 'root', null), checkpoint('cp_2', 'branch', 'cp_1')]));
    expect(layout.edgePaths.branch).toMatch(/^M/);
    expect(layout.edgePaths.live.split('M')).toHaveLength(3);
  });
});
