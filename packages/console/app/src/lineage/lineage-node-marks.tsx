import type { RetentionVerdict } from '../api/api-types';
import type { PositionedNode } from './layout-lineage';
import { type SnapshotState, snapshotStateOf } from './lineage-data';
import { nodeAccessibleName, nodeVisibleLabel } from './node-label';

/** About the width of one 11 px label character: the hit area spans the label without measuring text (1,000 nodes). */
const LABEL_CHARACTER_WIDTH = 6.5;

export interface NodeMarkContext {
  verdicts: Map<string, RetentionVerdict> | null;
  snapshottingProviders: Set<string>;
}

/**
 * The nodes as plain SVG elements (no component per node): a circle for a checkpoint, a diamond
 * for a pause checkpoint, fill for the snapshot state, a pin flag, a red ring when retention
 * would delete the snapshot, and a rounded box for a runtime's live head.
 */
export function renderNodeMarks(nodes: PositionedNode[], context: NodeMarkContext) {
  return nodes.map((positioned) => {
    const node = positioned.node;
    const transform = `translate(${positioned.x},${positioned.y})`;
    if (node.kind === 'origin') {
      return (
        <g key={node.id} class="node node-origin" transform={transform} aria-hidden="true">
          <rect x={-6} y={-6} width={12} height={12} />
          <text x={-10} y={4} text-anchor="end">
            {nodeVisibleLabel(node)}
          </text>
        </g>
      );
    }
    if (node.kind === 'live') {
      return (
        <g key={node.id} class={`node node-live live-${node.runtime.status}`} transform={transform} role="button" tabindex={0} aria-label={nodeAccessibleName(node)} data-node-id={node.id}>
          <rect x={-8} y={-11} width={140} height={22} rx={11} />
          <text x={4} y={4}>
            {nodeVisibleLabel(node)}
          </text>
        </g>
      );
    }
    const checkpoint = node.checkpoint;
    const snapshot: SnapshotState = snapshotStateOf(checkpoint, context.snapshottingProviders);
    const wouldDelete = context.verdicts?.get(checkpoint.checkpoint_id)?.delete === true;
    const classes = ['node', 'node-checkpoint', `kind-${checkpoint.kind}`, `snapshot-${snapshot}`, checkpoint.pinned ? 'is-pinned' : '', wouldDelete ? 'would-delete' : '']
      .filter(Boolean)
      .join(' ');
    const label = nodeVisibleLabel(node);
    return (
      <g key={node.id} class={classes} transform={transform} role="button" tabindex={0} aria-label={nodeAccessibleName(node)} data-node-id={node.id}>
        {/* The whole mark and its label take the click, not only the drawn strokes and glyphs. */}
        <rect class="hit-area" x={-12} y={-14} width={25 + label.length * LABEL_CHARACTER_WIDTH} height={28} />
        {wouldDelete ? <circle class="retention-ring" r={13} /> : null}
        {checkpoint.kind === 'pause' ? <path class="shape" d="M0,-9L9,0L0,9L-9,0Z" /> : <circle class="shape" r={8} />}
        {checkpoint.pinned ? <path class="pin" d="M-2,-20L-2,-9M-2,-20L7,-17L-2,-14" /> : null}
        <text x={13} y={4}>
          {label}
        </text>
      </g>
    );
  });
}
