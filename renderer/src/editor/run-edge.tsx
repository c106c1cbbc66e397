import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { memo, useContext, useState } from 'react';
import { typesToInsert } from '../../../core/editing/edits';
import { readOnlyShown } from '../store/versions-slice';
import { NodeTypeMenu } from './node-type-menu';
import { RunShownContext } from './node-view';
import { useAppStore } from '../store/app-store';

/**
 * React Flow's bezier edge, marked while a run shows data went along it. The
 * mark comes from the store, so a run's events redraw the edges they change
 * and leave React Flow's own state alone.
 */
function RunEdge(props: EdgeProps) {
  // Only while a run is shown does an edge listen to the store (see RunShownContext).
  return useContext(RunShownContext) ? <CarriedEdge {...props} /> : <Edge {...props} isCarried={false} />;
}

function CarriedEdge(props: EdgeProps) {
  const isCarried = useAppStore((s) => s.carriedEdges.has(props.id));
  return <Edge {...props} isCarried={isCarried} />;
}

/**
 * A loop edge runs back from a later node to an earlier one: drawn under the
 * nodes it repeats (as n8n draws its loops) instead of a curve through them.
 */
export function loopPath({
  sourceX,
  sourceY,
  targetX,
  targetY,
}: Pick<EdgeProps, 'sourceX' | 'sourceY' | 'targetX' | 'targetY'>): [string, number, number] {
  const below = Math.max(sourceY, targetY) + 70;
  const path = [
    `M ${sourceX} ${sourceY}`,
    `C ${sourceX + 50} ${sourceY}, ${sourceX + 50} ${below}, ${sourceX} ${below}`,
    `L ${targetX} ${below}`,
    `C ${targetX - 50} ${below}, ${targetX - 50} ${targetY}, ${targetX} ${targetY}`,
  ].join(' ');
  return [path, (sourceX + targetX) / 2, below];
}

function Edge({ isCarried, ...props }: EdgeProps & { isCarried: boolean }) {
  const [path, labelX, labelY] = props.data?.isLoop ? loopPath(props) : getBezierPath(props);
  return (
    <>
      {/* Only the selected edge offers it: one button, not one per edge of a big flow. */}
      {/* A loop's label is where its middle is: its + goes just under it. */}
      {props.selected && (
        <InsertButton edgeId={props.id} x={labelX} y={props.data?.isLoop ? labelY + LOOP_INSERT_BELOW : labelY} />
      )}
      <BaseEdge
        id={props.id}
        path={path}
        labelX={labelX}
        labelY={labelY}
        {...(props.label
          ? { label: props.label, labelBgPadding: [4, 2] as [number, number], labelBgBorderRadius: 4 }
          : {})}
        {...(props.markerEnd ? { markerEnd: props.markerEnd } : {})}
        {...(props.style ? { style: props.style } : {})}
        {...(props.interactionWidth !== undefined ? { interactionWidth: props.interactionWidth } : {})}
        {...(isCarried ? { className: 'edge-carried' } : {})}
      />
    </>
  );
}

/** How far under a loop edge's label its + goes. */
const LOOP_INSERT_BELOW = 26;

/** The + in the middle of the selected edge: puts a node there (n8n's + on a connection), from a list of types. */
function InsertButton({ edgeId, x, y }: { edgeId: string; x: number; y: number }) {
  const readOnly = useAppStore(readOnlyShown);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | undefined>(undefined);
  if (readOnly !== undefined) return null;
  return (
    <EdgeLabelRenderer>
      <button
        className="edge-insert nodrag nopan"
        style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
        aria-label="Insert a node into this edge"
        title="Put a node in the middle of this edge"
        onClick={(e) => setMenuAt({ x: e.clientX, y: e.clientY })}
      >
        +
      </button>
      {menuAt && (
        <NodeTypeMenu
          label="Insert a node into this edge"
          types={typesToInsert()}
          screen={menuAt}
          onChoose={(type) => useAppStore.getState().insertNode(type, edgeId)}
          onClose={() => setMenuAt(undefined)}
        />
      )}
    </EdgeLabelRenderer>
  );
}

/** Every edge is drawn by RunEdge (built once: React Flow warns when edgeTypes changes). */
export const edgeTypes = { default: memo(RunEdge) };
