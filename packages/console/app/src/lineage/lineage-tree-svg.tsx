import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { LineageLayout } from './layout-lineage';
import { type NodeMarkContext, renderNodeMarks } from './lineage-node-marks';
import { useTreeZoom } from './use-tree-zoom';

interface LineageTreeSvgProps {
  layout: LineageLayout;
  context: NodeMarkContext;
  selectedId: string | null;
  diffFromId: string | null;
  /** Shown first when the whole tree is too large to read (the page's runtime head). */
  focusNodeId: string | null;
  onSelect(nodeId: string): void;
}

/** Marks the first paint that shows this data, for the browser suite's render budget. */
function useRenderMeasure(svgRef: { current: SVGSVGElement | null }, layout: LineageLayout) {
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      try {
        const measure = performance.measure('lineage-render', 'lineage-data');
        svgRef.current?.setAttribute('data-render-ms', String(Math.round(measure.duration)));
        performance.clearMarks('lineage-data');
      } catch {
        // No 'lineage-data' mark: this paint is a re-render of data already measured.
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [layout, svgRef]);
}

/** The checkpoint tree: three edge paths, the node marks (rendered once per layout) and the selection rings. */
export function LineageTreeSvg({ layout, context, selectedId, diffFromId, focusNodeId, onSelect }: LineageTreeSvgProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const viewportRef = useRef<SVGGElement>(null);
  const { fit, zoomIn, zoomOut, reveal } = useTreeZoom(svgRef, viewportRef, layout, focusNodeId);
  useRenderMeasure(svgRef, layout);

  // Selecting a node must not re-render a thousand marks: they depend on the data only.
  const marks = useMemo(() => renderNodeMarks(layout.nodes, context), [layout, context]);
  const selected = selectedId ? layout.positions.get(selectedId) : undefined;
  const diffFrom = diffFromId ? layout.positions.get(diffFromId) : undefined;

  function nodeIdOf(event: Event): string | null {
    const target = event.target instanceof Element ? event.target.closest('[data-node-id]') : null;
    return target?.getAttribute('data-node-id') ?? null;
  }

  return (
    <div class="lineage-canvas">
      <div class="button-row zoom-controls">
        <button type="button" onClick={zoomIn}>
          Zoom in
        </button>
        <button type="button" onClick={zoomOut}>
          Zoom out
        </button>
        <button type="button" onClick={fit}>
          Fit
        </button>
      </div>
      <svg
        ref={svgRef}
        class="lineage-svg"
        role="group"
        aria-label="Checkpoint tree"
        data-checkpoint-count={layout.checkpointCount}
        onClick={(event) => {
          const nodeId = nodeIdOf(event);
          if (nodeId) onSelect(nodeId);
        }}
        onKeyDown={(event) => {
          const nodeId = nodeIdOf(event);
          if (nodeId && (event.key === 'Enter' || event.key === ' ')) {
            event.preventDefault();
            onSelect(nodeId);
          }
        }}
        onFocusIn={(event) => {
          const nodeId = nodeIdOf(event);
          const position = nodeId ? layout.positions.get(nodeId) : undefined;
          if (position) reveal(position.x, position.y);
        }}
      >
        <g ref={viewportRef}>
          <path class="edge edge-lineage" d={layout.edgePaths.lineage} />
          <path class="edge edge-branch" d={layout.edgePaths.branch} />
          <path class="edge edge-live" d={layout.edgePaths.live} />
          {diffFrom ? <circle class="diff-from-ring" cx={diffFrom.x} cy={diffFrom.y} r={17} /> : null}
          {selected ? <circle class="selection-ring" cx={selected.x} cy={selected.y} r={15} /> : null}
          {marks}
        </g>
      </svg>
    </div>
  );
}
