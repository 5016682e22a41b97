import { hierarchy, tree } from 'd3-hierarchy';
import type { LineageNode } from './build-lineage-tree';

/** Vertical distance between siblings and horizontal distance between generations, in SVG units. */
export const ROW_SPACING = 40;
export const COLUMN_SPACING = 150;

export interface PositionedNode {
  id: string;
  /** Left to right: depth. */
  x: number;
  /** Top to bottom: breadth. */
  y: number;
  node: LineageNode;
  parentId: string | null;
}

export interface LineageLayout {
  nodes: PositionedNode[];
  positions: Map<string, PositionedNode>;
  /** One SVG path per edge kind, so a thousand edges are three elements. */
  edgePaths: { lineage: string; branch: string; live: string };
  bounds: { minX: number; maxX: number; minY: number; maxY: number };
  checkpointCount: number;
}

function runtimeOf(node: LineageNode): string {
  if (node.kind === 'checkpoint') return node.checkpoint.runtime_id;
  if (node.kind === 'live') return node.runtime.runtime_id;
  return node.runtimeId;
}

function curve(fromX: number, fromY: number, toX: number, toY: number): string {
  const middleX = (fromX + toX) / 2;
  return `M${fromX},${fromY}C${middleX},${fromY} ${middleX},${toY} ${toX},${toY}`;
}

/** A left-to-right tidy tree (d3-hierarchy's `tree()`), flattened into what the SVG draws. */
export function layoutLineage(root: LineageNode): LineageLayout {
  const laidOut = tree<LineageNode>().nodeSize([ROW_SPACING, COLUMN_SPACING])(hierarchy(root, (node) => node.children));
  const nodes: PositionedNode[] = [];
  const positions = new Map<string, PositionedNode>();
  const edges = { lineage: [] as string[], branch: [] as string[], live: [] as string[] };
  const bounds = { minX: 0, maxX: 0, minY: 0, maxY: 0 };
  let checkpointCount = 0;
  for (const entry of laidOut.descendants()) {
    const positioned: PositionedNode = { id: entry.data.id, x: entry.y, y: entry.x, node: entry.data, parentId: entry.parent?.data.id ?? null };
    nodes.push(positioned);
    positions.set(positioned.id, positioned);
    if (entry.data.kind === 'checkpoint') checkpointCount += 1;
    bounds.minX = Math.min(bounds.minX, positioned.x);
    bounds.maxX = Math.max(bounds.maxX, positioned.x);
    bounds.minY = Math.min(bounds.minY, positioned.y);
    bounds.maxY = Math.max(bounds.maxY, positioned.y);
    if (entry.parent) {
      const path = curve(entry.parent.y, entry.parent.x, entry.y, entry.x);
      if (entry.data.kind === 'live') edges.live.push(path);
      else if (entry.parent.data.kind !== 'origin' && runtimeOf(entry.parent.data) !== runtimeOf(entry.data)) edges.branch.push(path);
      else edges.lineage.push(path);
    }
  }
  return {
    nodes,
    positions,
    edgePaths: { lineage: edges.lineage.join(''), branch: edges.branch.join(''), live: edges.live.join('') },
    bounds,
    checkpointCount,
  };
}
