import { select } from 'd3-selection';
import { type ZoomBehavior, zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import { type RefObject } from 'preact';
import { useCallback, useEffect, useRef } from 'preact/hooks';
import type { LineageLayout } from './layout-lineage';

const FIT_MARGIN = 60;
/** Room for the labels beside the outermost nodes: a root's name on its left, a live head's pill on its right. */
const LEFT_LABEL_WIDTH = 110;
const RIGHT_LABEL_WIDTH = 160;
const MAX_FIT_SCALE = 1.5;
/** Below this scale labels cannot be read nor nodes hit: the first view then shows the focus node instead of everything. */
const MIN_READABLE_SCALE = 0.45;
const FOCUS_SCALE = 0.9;

/**
 * Wheel, drag and button zoom for the tree (d3-zoom). The transform is written to the viewport
 * group's attribute directly: zooming never re-renders the thousand nodes through Preact.
 */
export function useTreeZoom(
  svgRef: RefObject<SVGSVGElement | null>,
  viewportRef: RefObject<SVGGElement | null>,
  layout: LineageLayout | null,
  focusNodeId: string | null,
) {
  const behaviorRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const fittedRef = useRef(false);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const behavior = zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.01, 4])
      .on('zoom', (event: { transform: { toString(): string } }) => {
        viewportRef.current?.setAttribute('transform', event.transform.toString());
      });
    select(svg).call(behavior).on('dblclick.zoom', null);
    behaviorRef.current = behavior;
    return () => {
      select(svg).on('.zoom', null);
    };
  }, [svgRef, viewportRef]);

  /** The transform that shows the whole tree. */
  const fitTransform = useCallback(() => {
    const svg = svgRef.current;
    if (!svg || !layout) return null;
    const width = svg.clientWidth || 800;
    const height = svg.clientHeight || 500;
    const { minX, maxX, minY, maxY } = layout.bounds;
    const left = minX - LEFT_LABEL_WIDTH;
    const drawnWidth = maxX + RIGHT_LABEL_WIDTH - left;
    const scale = Math.min(width / (drawnWidth + FIT_MARGIN * 2), height / (maxY - minY + FIT_MARGIN * 2), MAX_FIT_SCALE);
    const x = (width - drawnWidth * scale) / 2 - left * scale;
    const y = (height - (maxY - minY) * scale) / 2 - minY * scale;
    return { x, y, scale };
  }, [svgRef, layout]);

  const fit = useCallback(() => {
    const svg = svgRef.current;
    const transform = fitTransform();
    if (!svg || !behaviorRef.current || !transform) return;
    select(svg).call(behaviorRef.current.transform, zoomIdentity.translate(transform.x, transform.y).scale(transform.scale));
  }, [svgRef, fitTransform]);

  // The first view, once per mount: the whole tree when it is readable so, else the focus node
  // (the page's runtime head) at a readable scale. Later refreshes keep the user's view.
  useEffect(() => {
    const svg = svgRef.current;
    const transform = fitTransform();
    if (!svg || !behaviorRef.current || !transform || fittedRef.current || !layout) return;
    fittedRef.current = true;
    const focus = focusNodeId ? layout.positions.get(focusNodeId) : undefined;
    if (transform.scale >= MIN_READABLE_SCALE || !focus) {
      fit();
      return;
    }
    const behavior = behaviorRef.current;
    select(svg).call(behavior.transform, zoomIdentity.scale(FOCUS_SCALE));
    // The focus node a quarter of the way in, so some of its past shows on its left (on a phone too).
    select(svg).call(behavior.translateTo, focus.x + svg.clientWidth / 4 / FOCUS_SCALE, focus.y);
  }, [layout, fit, fitTransform, focusNodeId, svgRef]);

  const zoomBy = useCallback(
    (factor: number) => {
      const svg = svgRef.current;
      if (svg && behaviorRef.current) select(svg).call(behaviorRef.current.scaleBy, factor);
    },
    [svgRef],
  );

  /** Brings a node into view when keyboard focus lands on it off-screen. */
  const reveal = useCallback(
    (x: number, y: number) => {
      const svg = svgRef.current;
      if (!svg || !behaviorRef.current) return;
      const [screenX, screenY] = zoomTransform(svg).apply([x, y]);
      const inside = screenX >= 20 && screenY >= 20 && screenX <= svg.clientWidth - 20 && screenY <= svg.clientHeight - 20;
      if (!inside) select(svg).call(behaviorRef.current.translateTo, x, y);
    },
    [svgRef],
  );

  return { fit, zoomIn: () => zoomBy(1.4), zoomOut: () => zoomBy(1 / 1.4), reveal };
}
