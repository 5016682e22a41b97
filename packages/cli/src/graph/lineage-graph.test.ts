import type { CheckpointView, RuntimeDetail, RuntimeStatus } from '@runtimectl/core';
import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderLineageGraph, type LineageInput } from './lineage-graph';
import { buildLineageTree } from './lineage-tree';

const NOW = 1_800_000_000_000;
const colors = picocolors.createColors(false);
const minutesAgo = (minutes: number) => NOW - minutes * 60_000;

/** Checkpoint ids sort in creation order, as the daemon's do; `n` orders them here. */
const cpId = (n: number) => `rtcp_${n.toString(16).padStart(32, '0')}`;

function runtime(id: string, options: { status?: RuntimeStatus; createdMinutesAgo: number; parent?: string; from?: number; head?: number }): RuntimeDetail {
  return {
    runtime: { runtime_id: id, conversation_id: 'c', sender_id: 's', status: options.status ?? 'idle', created_at_ms: minutesAgo(options.createdMinutesAgo), updated_at_ms: NOW },
    provider: 'memory',
    head_checkpoint_id: options.head === undefined ? null : cpId(options.head),
    paused_checkpoint_id: null,
    parent_runtime_id: options.parent ?? null,
    forked_from_checkpoint_id: options.from === undefined ? null : cpId(options.from),
    metadata: {},
    session_state: null,
    last_error: null,
    retention: {},
    expires_at_ms: null,
    idle_pause_after_ms: null,
    auto_resume: null,
    verify: null,
    opened_by_key: null,
    home_node_id: null,
  };
}

function checkpoint(n: number, runtimeId: string, parent: number | null, options: { name?: string; kind?: 'checkpoint' | 'pause'; minutesAgo: number; snapshot?: boolean }): CheckpointView {
  return {
    checkpoint_id: cpId(n),
    runtime_id: runtimeId,
    parent_checkpoint_id: parent === null ? null : cpId(parent),
    kind: options.kind ?? 'checkpoint',
    name: options.name ?? null,
    metadata: {},
    created_at_ms: minutesAgo(options.minutesAgo),
    provider: 'memory',
    has_provider_snapshot: options.snapshot ?? true,
    pinned: false,
    last_used_at_ms: null,
    manifest_root: null,
  };
}

/** root: 1 → 2 → pause 5; A from 1 (A: 3 → 6), B from 3 (no checkpoints), C from 2 (closed, no checkpoints). */
const TREE: LineageInput = {
  rootRuntimeId: 'root',
  runtimes: [
    runtime('root', { status: 'paused', createdMinutesAgo: 60, head: 5 }),
    runtime('A', { createdMinutesAgo: 50, parent: 'root', from: 1, head: 6 }),
    runtime('B', { createdMinutesAgo: 40, parent: 'A', from: 3, head: 3 }),
    runtime('C', { status: 'closed', createdMinutesAgo: 30, parent: 'root', from: 2, head: 2 }),
  ],
  checkpoints: [
    checkpoint(1, 'root', null, { name: 'c1', minutesAgo: 55 }),
    checkpoint(2, 'root', 1, { name: 'c2', minutesAgo: 35 }),
    checkpoint(3, 'A', 1, { name: 'a1', minutesAgo: 45 }),
    checkpoint(5, 'root', 2, { name: 'eod', kind: 'pause', minutesAgo: 10 }),
    checkpoint(6, 'A', 3, { minutesAgo: 5, snapshot: false }),
  ],
};

describe('renderLineageGraph', () => {
  it('draws runtimes as @ over their checkpoints, and each checkout as a lane that joins its source with |/', () => {
    expect(renderLineageGraph(TREE, { nowMs: NOW, colors })).toEqual([
      '@ root  paused  opened 1 hour ago',
      `* ${cpId(5)}  pause "eod"  10 minutes ago`,
      '| @ C  closed  opened 30 minutes ago',
      '|/',
      `* ${cpId(2)}  checkpoint "c2"  35 minutes ago`,
      '| @ A  idle  opened 50 minutes ago',
      `| * ${cpId(6)}  checkpoint  5 minutes ago  (no snapshot)`,
      '| | @ B  idle  opened 40 minutes ago',
      '| |/',
      `| * ${cpId(3)}  checkpoint "a1"  45 minutes ago`,
      '|/',
      `* ${cpId(1)}  checkpoint "c1"  55 minutes ago`,
    ]);
  });

  it('stacks several checkouts of one checkpoint, the newest branch on top', () => {
    const input: LineageInput = {
      rootRuntimeId: 'r',
      runtimes: [
        runtime('r', { createdMinutesAgo: 9, head: 1 }),
        runtime('old', { createdMinutesAgo: 8, parent: 'r', from: 1, head: 1 }),
        runtime('new', { createdMinutesAgo: 7, parent: 'r', from: 1, head: 1 }),
      ],
      checkpoints: [checkpoint(1, 'r', null, { minutesAgo: 8 })],
    };
    expect(renderLineageGraph(input, { nowMs: NOW, colors })).toEqual([
      '@ r  idle  opened 9 minutes ago',
      '| @ new  idle  opened 7 minutes ago',
      '|/',
      '| @ old  idle  opened 8 minutes ago',
      '|/',
      `* ${cpId(1)}  checkpoint  8 minutes ago`,
    ]);
  });

  it('draws a runtime without checkpoints as a single @', () => {
    const input: LineageInput = { rootRuntimeId: 'lonely', runtimes: [runtime('lonely', { createdMinutesAgo: 0 })], checkpoints: [] };
    expect(renderLineageGraph(input, { nowMs: NOW, colors })).toEqual(['@ lonely  idle  opened now']);
  });

  it('starts a checked-out runtime at its own first checkpoint when its source is not in the input', () => {
    const input: LineageInput = {
      rootRuntimeId: 'child',
      runtimes: [runtime('child', { createdMinutesAgo: 3, parent: 'elsewhere', from: 1, head: 2 })],
      checkpoints: [checkpoint(2, 'child', 1, { minutesAgo: 2 })],
    };
    expect(renderLineageGraph(input, { nowMs: NOW, colors })).toEqual(['@ child  idle  opened 3 minutes ago', `* ${cpId(2)}  checkpoint  2 minutes ago`]);
  });

  it('draws a long chain without deep recursion', () => {
    const length = 20_000;
    const input: LineageInput = {
      rootRuntimeId: 'long',
      runtimes: [runtime('long', { createdMinutesAgo: 1, head: length })],
      checkpoints: Array.from({ length }, (_, index) => checkpoint(index + 1, 'long', index === 0 ? null : index, { minutesAgo: 1 })),
    };
    const lines = renderLineageGraph(input, { nowMs: NOW, colors });
    expect(lines).toHaveLength(length + 1);
    expect(lines.at(-1)).toBe(`* ${cpId(1)}  checkpoint  1 minute ago`);
  });

  it('colours only when asked', () => {
    const colored = renderLineageGraph(TREE, { nowMs: NOW, colors: picocolors.createColors(true) });
    expect(colored[0]).toContain('\u001b[');
    expect(colored.map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual(renderLineageGraph(TREE, { nowMs: NOW, colors }));
  });
});

describe('buildLineageTree', () => {
  it('nests runtimes under their parents with their checkpoints newest first', () => {
    const tree = buildLineageTree(TREE);
    expect(tree.runtime.runtime.runtime_id).toBe('root');
    expect(tree.checkpoints.map((view) => view.checkpoint_id)).toEqual([cpId(5), cpId(2), cpId(1)]);
    expect(tree.children.map((child) => child.runtime.runtime.runtime_id)).toEqual(['A', 'C']);
    expect(tree.children[0]!.children.map((child) => child.runtime.runtime.runtime_id)).toEqual(['B']);
    expect(tree.children[0]!.children[0]!.checkpoints).toEqual([]);
  });
});
