import {
  applyNodeChanges,
  ControlButton,
  Controls,
  getBezierPath,
  MiniMap,
  ReactFlow,
  useOnViewportChange,
  useStore,
  useStoreApi,
  type Connection,
  type ConnectionLineComponentProps,
  type Edge,
  type EdgeChange,
  type IsValidConnection,
  type NodeChange,
  type OnConnectEnd,
  type OnNodeDrag,
  type ReactFlowInstance,
  type ReactFlowState,
} from '@xyflow/react';
import { Map as MapIcon, Maximize } from 'lucide-react';
import { shortRunId } from '../../../core/model/run';
import type { Position as FlowPosition } from '../../../core/model/flow';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import {
  connectionRefusal,
  DEFAULT_LOOP_PASSES,
  goesBack,
  portAfter,
  type DraggedPort,
} from '../../../core/editing/edits';
import { useAppStore } from '../store/app-store';
import { cardDragged, setCardDragged } from '../store/card-drag';
import { flowOnCanvas, versionOnCanvas } from '../store/versions-slice';
import { toRfEdges, toRfNodes, type CanvasNode } from './mapper';
import { declareOpening, dropDeclaredOnceMeasured, redeclareUndrawn } from './offscreen';
import { NodeDetailContext, nodeTypes, RunShownContext } from './node-view';
import { edgeTypes } from './run-edge';
import { FarEdges, farEdgeAt } from './far-edges';
import type { FarNode } from './far-paths';
import { CanvasGrid, GRID } from './canvas-grid';
import { detailAt, initialViewport, labelsShownAt, MIN_ZOOM, type NodeDetail } from './viewport';
import { useFitFlow } from './use-fit-flow';
import { EmptyFlowHint } from './empty-flow-hint';
import { FindBar } from './find-bar';
import { NOTE_MIME, PALETTE_MIME, panToShow, viewBoxOf } from './palette';
import { ADD_NODE_EVENT } from '../app-commands';
import { freePosition } from '../../../core/editing/placement';
import { AddNodeMenu } from './node-type-menu';
import { useCanvasMenu } from './canvas-menu';
import { NODE_MIN_HEIGHT, NODE_WIDTH } from '../../../core/editing/layout';

/** Folds React Flow's select changes into a set of selected ids. */
function applySelectChanges(selected: Set<string>, changes: readonly (NodeChange<CanvasNode> | EdgeChange)[]): void {
  for (const change of changes) {
    if (change.type !== 'select') continue;
    if (change.selected) selected.add(change.id);
    else selected.delete(change.id);
  }
}

declare global {
  interface Window {
    /** When the canvas became interactive (ms since navigation); read by the UI benchmark. */
    flowbenchReady?: number;
  }
}

/**
 * Shown over the canvas while nodes are dragged (React Flow follows the
 * pointer on the window then, not on what is under it). Without it the
 * browser hit-tests every mouse move against every card drawn: zoomed out on
 * a 10,000-node flow (5,850 cards) that took about 8 ms of each move, against
 * about 2 ms with this on top. Shown and hidden outside React, so a drag's
 * start and end redraw nothing. React Flow says when a drag of nodes starts
 * and stops (a box selection's too); a drag it gives up (the node deleted
 * meanwhile) says nothing, so the shield also hides itself when the button
 * is let go over it, or pressed, or the wheel turned: it must never hold the
 * canvas.
 */
function showDragShield(isShown: boolean): void {
  const shield = document.querySelector<HTMLElement>('.canvas-drop > .fb-drag-shield');
  if (shield) shield.hidden = !isShown;
}
const hideDragShield = (event: { currentTarget: HTMLElement }) => {
  event.currentTarget.hidden = true;
};

// Handlers that need nothing from the component: one function each, so React Flow's props stay the same.
// A card is being dragged (cardDragged): its moves are saved when it is let go (onNodeDragStop), not on the way.
const onDragStart = () => {
  setCardDragged(true);
  showDragShield(true);
};
const onNodeDragStop: OnNodeDrag<CanvasNode> = (_, __, dragged) => {
  setCardDragged(false);
  showDragShield(false);
  useAppStore.getState().moveNodes(dragged.map((n) => ({ id: n.id, position: n.position })));
};

/** When an arrow key last went down: React Flow moves the focused card or selection in that key's handler. */
let arrowKeyAt = Number.NEGATIVE_INFINITY;
const noteArrowKey = (event: KeyboardEvent) => {
  if (event.key.startsWith('Arrow')) arrowKeyAt = performance.now();
};

/**
 * Moves React Flow made for the arrow keys on a focused card or selection (a
 * grid step, four with Shift). Saved as they come, a run of key presses one
 * Undo step; before, the card moved on screen and went back on a reload. Only
 * those: a drag is saved when let go, a note resized from its left edge by its
 * own end (both also send positions on the way).
 */
function saveKeyMoves(changes: readonly NodeChange<CanvasNode>[]): void {
  if (cardDragged() || performance.now() - arrowKeyAt > 100) return;
  const moves = changes.flatMap((c) =>
    c.type === 'position' && c.position && !c.dragging ? [{ id: c.id, position: c.position }] : [],
  );
  if (moves.length > 0) useAppStore.getState().moveNodes(moves, 'arrow-keys');
}
const clearSelection = () => useAppStore.getState().setSelection([], []);
/** How near a far-out edge a click selects it, in screen pixels. */
const FAR_CLICK_PX = 6;
const allowDrop = (event: DragEvent) => {
  event.preventDefault();
  event.dataTransfer.dropEffect = 'move';
};

/** Why joining the ends of a connection being dragged is refused; undefined when it is allowed or ends nowhere. */
/** The edge a drag would make, source first: a connection can be dragged backwards, from an input port. */
function ends(fromNode: string, fromType: 'source' | 'target' | undefined, toNode: string): [string, string] {
  return fromType === 'target' ? [toNode, fromNode] : [fromNode, toNode];
}

function refusalFor(
  fromNode: string,
  fromType: 'source' | 'target' | undefined,
  toNode: string | undefined,
): string | undefined {
  const flow = useAppStore.getState().flow;
  if (!flow || !toNode) return undefined;
  return connectionRefusal(flow, ...ends(fromNode, fromType, toNode));
}

/** True when the drag would make a loop edge (it goes back to a node that leads to its source). */
function isLoopBack(fromNode: string, fromType: 'source' | 'target' | undefined, toNode: string | undefined): boolean {
  const flow = useAppStore.getState().flow;
  return flow !== undefined && toNode !== undefined && goesBack(flow, ...ends(fromNode, fromType, toNode));
}

/** The line being dragged; over a port it may not join, it turns red and says why, beside the pointer. */
function ConnectionLine({
  fromX,
  fromY,
  toX,
  toY,
  fromPosition,
  toPosition,
  fromNode,
  fromHandle,
  toNode,
  connectionStatus,
}: ConnectionLineComponentProps<CanvasNode>) {
  const [path] = getBezierPath({
    sourceX: fromX,
    sourceY: fromY,
    sourcePosition: fromPosition,
    targetX: toX,
    targetY: toY,
    targetPosition: toPosition,
  });
  const reason = connectionStatus === 'invalid' ? refusalFor(fromNode.id, fromHandle.type, toNode?.id) : undefined;
  const isLoop = connectionStatus === 'valid' && isLoopBack(fromNode.id, fromHandle.type, toNode?.id);
  return (
    <g className={`fb-connection-line ${connectionStatus ?? ''}`}>
      <path d={path} fill="none" />
      {reason && (
        <foreignObject x={toX + 12} y={toY + 12} width={300} height={90}>
          <div className="connection-refusal" role="status">
            Not allowed: {reason}
          </div>
        </foreignObject>
      )}
      {isLoop && (
        <foreignObject x={toX + 12} y={toY + 12} width={300} height={90}>
          <div className="connection-loop" role="status">
            A loop: the nodes between run again, at most {DEFAULT_LOOP_PASSES} passes (changeable)
          </div>
        </foreignObject>
      )}
    </g>
  );
}

/** Letting go over a port that may not be joined says why, once more, where the person looks afterwards. */
const sayRefusal = (state: Parameters<OnConnectEnd>[1]) => {
  if (state.isValid !== false || !state.fromNode || !state.toNode) return;
  const reason = refusalFor(state.fromNode.id, state.fromHandle?.type, state.toNode.id);
  if (reason) useAppStore.getState().notify(`Not connected: ${reason}`);
};

/**
 * The canvas area. It measures itself first, so React Flow starts with the
 * viewport that fits the flow (see initialViewport) instead of fitting later.
 */
export function Canvas() {
  // Seen before React Flow's own handlers (capture), which move the cards in the same key press.
  useEffect(() => {
    window.addEventListener('keydown', noteArrowKey, true);
    return () => window.removeEventListener('keydown', noteArrowKey, true);
  }, []);
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number }>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (element) setSize({ width: element.clientWidth, height: element.clientHeight });
  }, []);
  return (
    <div className="canvas" ref={ref}>
      {size && <FlowCanvas {...size} />}
    </div>
  );
}

/** What React Flow is given while FarEdges draws the edges (one array: a new one would redraw). */
const NO_EDGES: Edge[] = [];

/**
 * The React Flow canvas. The store's flow is the truth; this component keeps
 * React Flow's node objects (for smooth dragging) and reports edits back.
 */
function FlowCanvas({ width, height }: { width: number; height: number }) {
  // A past run whose flow differs from the draft is shown over the nodes it had, read-only.
  const flow = useAppStore(flowOnCanvas);
  const isReadOnly = useAppStore((s) => s.runSnapshot !== undefined);
  const isRunShown = useAppStore((s) => s.run !== undefined);
  const selectedNodes = useAppStore((s) => s.selectedNodes);
  const selectedEdges = useAppStore((s) => s.selectedEdges);
  const problems = useAppStore((s) => s.problems);
  // From onInit rather than useReactFlow(), which re-renders this component (and React Flow) once its viewport exists.
  const instance = useRef<ReactFlowInstance<CanvasNode>>(undefined);
  // The whole flow in view on opening; an empty flow starts at 100 %.
  const [viewport] = useState(() => {
    const opened = useAppStore.getState().flow;
    return opened ? initialViewport(opened, width, height) : { x: 0, y: 0, zoom: 1 };
  });
  const [detail, setDetail] = useState<NodeDetail>(detailAt(viewport.zoom));
  const [labelsShown, setLabelsShown] = useState(labelsShownAt(viewport.zoom));

  // Zoomed out to labels only, the edges are drawn as a few paths (FarEdges) and the cards have no ports.
  const drawsFarEdges = detail === 'box';

  // The first render already has every node, so React Flow initialises once, with the whole graph.
  const [nodes, setNodes] = useState<CanvasNode[]>(() => {
    const state = useAppStore.getState();
    if (!state.flow) return [];
    const opening = toRfNodes(state.flow, [], new Set(state.selectedNodes), state.problems);
    return declareOpening(opening, viewport, width, height, drawsFarEdges);
  });
  const [edges, setEdges] = useState<Edge[]>(() => {
    const state = useAppStore.getState();
    return state.flow ? toRfEdges(state.flow, [], new Set(state.selectedEdges)) : [];
  });

  const selectedNodeSet = useMemo(() => new Set(selectedNodes), [selectedNodes]);
  const selectedEdgeSet = useMemo(() => new Set(selectedEdges), [selectedEdges]);

  // A run's statuses never pass through here: each card and edge follows its own in the store
  // (NodeView, RunEdge), so a hundred events a second leave React Flow's own state alone.
  useEffect(() => {
    if (!flow) return;
    // A node React Flow measured keeps that size when it is made again (see toRfNodes' measuredOf).
    const measuredOf = (id: string) => instance.current?.getInternalNode(id)?.measured;
    setNodes((previous) => toRfNodes(flow, previous, selectedNodeSet, isReadOnly ? [] : problems, measuredOf));
    setEdges((previous) => toRfEdges(flow, previous, selectedEdgeSet));
  }, [flow, selectedNodeSet, selectedEdgeSet, problems, isReadOnly]);

  const onNodesChange = useCallback((changes: NodeChange<CanvasNode>[]) => {
    setNodes((current) => dropDeclaredOnceMeasured(applyNodeChanges(changes, current), changes));
    saveKeyMoves(changes);
    if (changes.some((c) => c.type === 'select')) {
      const state = useAppStore.getState();
      const selected = new Set(state.selectedNodes);
      applySelectChanges(selected, changes);
      state.setSelection([...selected], state.selectedEdges);
    }
  }, []);

  // Far out, FarEdges draws the edges and they take no pointer events: a click on the pane may be on one.
  const farEdges = useRef<readonly Edge[] | undefined>(undefined);
  farEdges.current = drawsFarEdges ? edges : undefined;
  const farEdgeUnder = useCallback((event: ReactMouseEvent | MouseEvent): Edge | undefined => {
    const shown = instance.current;
    const edges = farEdges.current;
    if (!shown || !edges) return undefined;
    const point = shown.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    // An edge joins flow nodes, never notes.
    const id = farEdgeAt(
      edges,
      (at) => shown.getInternalNode(at) as FarNode | undefined,
      point,
      FAR_CLICK_PX / shown.getZoom(),
    );
    return id === undefined ? undefined : edges.find((e) => e.id === id);
  }, []);
  const onPaneClick = useCallback((event: ReactMouseEvent) => {
    const hit = farEdgeUnder(event)?.id;
    if (!hit) return clearSelection();
    const state = useAppStore.getState();
    // As close up: Ctrl (Cmd) adds the edge to the selection or takes it out.
    if (!event.ctrlKey && !event.metaKey) return state.setSelection([], [hit]);
    const others = state.selectedEdges.filter((id) => id !== hit);
    state.setSelection(state.selectedNodes, others.length < state.selectedEdges.length ? others : [...others, hit]);
  }, []);

  const onPortsBack = useCallback((drawn: Set<string>) => setNodes((current) => redeclareUndrawn(current, drawn)), []);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    if (!changes.some((c) => c.type === 'select')) return;
    const state = useAppStore.getState();
    const selected = new Set(state.selectedEdges);
    applySelectChanges(selected, changes);
    state.setSelection(state.selectedNodes, [...selected]);
  }, []);

  const isValidConnection: IsValidConnection = useCallback(
    (connection) =>
      connection.source !== connection.target &&
      useAppStore.getState().canConnect(connection.source, connection.target),
    [],
  );

  const onConnect = useCallback((connection: Connection) => {
    useAppStore
      .getState()
      .connect(connection.source, connection.sourceHandle ?? 'out', connection.target, connection.targetHandle ?? 'in');
  }, []);

  const onDrop = useCallback((event: DragEvent) => {
    const type = event.dataTransfer.getData(PALETTE_MIME);
    const isNote = event.dataTransfer.types.includes(NOTE_MIME);
    if ((!type && !isNote) || !instance.current) return;
    event.preventDefault();
    const point = instance.current.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    const at = onGrid(point);
    if (isNote) useAppStore.getState().addNote(at);
    else useAppStore.getState().addNode(type, at);
  }, []);

  // The types to add at a place (NodeTypeMenu): where a connection was let go on empty canvas, joined to
  // its port; on the N key, beside the selected node joined after it, else mid-view; where double-clicked.
  const [adding, setAdding] = useState<
    { screen: { x: number; y: number }; at: FlowPosition; from: DraggedPort | undefined } | undefined
  >(undefined);
  const onConnectEnd = useCallback<OnConnectEnd>((event, state) => {
    if (state.toNode || !state.fromNode || !state.fromHandle?.id || !instance.current) return sayRefusal(state);
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    // Let go over the palette or the side panel: nothing is meant to go there.
    const canvas = (event.target as Element | null)?.closest?.('.react-flow__pane, .react-flow__renderer');
    if (!point || !canvas) return;
    const side = state.fromHandle.type;
    const drop = instance.current.screenToFlowPosition({ x: point.clientX, y: point.clientY });
    // The new card's joined port where the connection was let go: its left edge after, its right edge before.
    const x = side === 'source' ? drop.x : drop.x - NODE_WIDTH;
    const y = drop.y - NODE_MIN_HEIGHT / 2;
    setAdding({
      screen: { x: point.clientX, y: point.clientY },
      at: onGrid({ x, y }),
      from: { nodeId: state.fromNode.id, port: state.fromHandle.id, side },
    });
  }, []);

  // A node added at the view's edge is brought into view whole, the view moving as little as it takes.
  const bringIntoView = useCallback((at: FlowPosition) => {
    if (instance.current) panToShow(instance.current, at);
  }, []);

  useEffect(() => {
    if (isReadOnly) return;
    const onAddNode = () => {
      const { flow: shown, selectedNodes: chosen } = useAppStore.getState();
      const view = instance.current;
      if (!shown || !view) return;
      const selected = chosen.length === 1 ? shown.nodes.find((n) => n.id === chosen[0]) : undefined;
      // Where a palette click puts it: beside the selected node when in view, else free space mid-view.
      const at = freePosition(shown.nodes, selected?.position, viewBoxOf(view.screenToFlowPosition));
      const screen = view.flowToScreenPosition({ x: at.x, y: at.y + NODE_MIN_HEIGHT / 2 });
      setAdding({ screen, at, from: selected && portAfter(selected) });
    };
    window.addEventListener(ADD_NODE_EVENT, onAddNode);
    return () => window.removeEventListener(ADD_NODE_EVENT, onAddNode);
  }, [isReadOnly]);

  // Where a node added at a click on the canvas goes: centred on the pointer, on the grid.
  const placeOf = useCallback((event: ReactMouseEvent | MouseEvent) => {
    const view = instance.current;
    if (!view) return undefined;
    const point = view.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    const at = onGrid({ x: point.x - NODE_WIDTH / 2, y: point.y - NODE_MIN_HEIGHT / 2 });
    return { screen: { x: event.clientX, y: event.clientY }, at };
  }, []);
  const addHere = useCallback((screen: { x: number; y: number }, at: FlowPosition) => {
    setAdding({ screen, at, from: undefined });
  }, []);
  const contextMenu = useCanvasMenu(placeOf, addHere, farEdgeUnder);

  // Double-click on empty canvas: the types to add there (ComfyUI's search; React Flow's zoom on it is off).
  const onDoubleClick = useCallback(
    (event: ReactMouseEvent) => {
      // The pane itself: it holds the cards, notes and edges too, whose double-clicks are theirs.
      if (isReadOnly || !(event.target as Element).classList.contains('react-flow__pane')) return;
      const place = placeOf(event);
      if (place) setAdding({ ...place, from: undefined });
    },
    [isReadOnly, placeOf],
  );

  const onInit = useCallback((flow: ReactFlowInstance<CanvasNode>) => {
    instance.current = flow;
    window.flowbenchReady = performance.now();
    // What waits for the canvas (the side panel's content, the flow's check) waits one frame more:
    // rendered here, it was drawn before the nodes, whose first frame then came later.
    requestAnimationFrame(() => setTimeout(() => useAppStore.setState({ isCanvasReady: true })));
  }, []);

  return (
    <div
      className="canvas-drop"
      data-detail={detail}
      data-labels={labelsShown ? undefined : 'hidden'}
      onDragOver={allowDrop}
      onDrop={isReadOnly ? undefined : onDrop}
      onDoubleClick={onDoubleClick}
    >
      {isReadOnly && <PastRunBanner />}
      <EmptyFlowHint />
      <FindBar />
      <NodeDetailContext.Provider value={detail}>
        <RunShownContext.Provider value={isRunShown}>
          <ReactFlow<CanvasNode>
            nodes={nodes}
            edges={drawsFarEdges ? NO_EDGES : edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onConnectEnd={onConnectEnd}
            connectionLineComponent={ConnectionLine}
            isValidConnection={isValidConnection}
            onNodeDragStart={onDragStart}
            onNodeDragStop={onNodeDragStop}
            nodesDraggable={!isReadOnly}
            nodesConnectable={!isReadOnly}
            onPaneClick={onPaneClick}
            {...contextMenu.handlers}
            zoomOnDoubleClick={false}
            deleteKeyCode={null}
            selectionKeyCode="Shift"
            multiSelectionKeyCode={['Meta', 'Control']}
            snapToGrid
            snapGrid={GRID}
            colorMode="system"
            onlyRenderVisibleElements
            minZoom={MIN_ZOOM}
            defaultViewport={viewport}
            onInit={onInit}
            proOptions={{ hideAttribution: true }}
          >
            <CanvasGrid />
            <MapWhileMoving />
            <ZoomWatcher at={detailAt} onChange={setDetail} />
            <ZoomWatcher at={labelsShownAt} onChange={setLabelsShown} />
            {drawsFarEdges && <FarEdges edges={edges} isRunShown={isRunShown} />}
            <PortsRemeasured portless={drawsFarEdges} onPortsBack={onPortsBack} />
          </ReactFlow>
        </RunShownContext.Provider>
      </NodeDetailContext.Provider>
      {adding && <AddNodeMenu {...adding} onAdded={bringIntoView} onClose={() => setAdding(undefined)} />}
      {contextMenu.menus}
      <div
        className="fb-drag-shield"
        hidden
        onPointerDown={hideDragShield}
        onPointerUp={hideDragShield}
        onWheel={hideDragShield}
      />
    </div>
  );
}

/** A point of the flow on the canvas's grid, where a card dropped or added there goes. */
const onGrid = (point: FlowPosition): FlowPosition => ({
  x: Math.round(point.x / GRID[0]) * GRID[0],
  y: Math.round(point.y / GRID[1]) * GRID[1],
});

/** Over a past run's flow or a published version: what is shown, and the way back. */
function PastRunBanner() {
  const run = useAppStore((s) => s.run);
  const version = useAppStore(versionOnCanvas);
  if (version !== undefined) {
    const { restoreVersion, backToDraft } = useAppStore.getState();
    return (
      <div className="past-run-banner" role="status" data-testid="past-version">
        Showing version {version} as it was published: read-only.{' '}
        <button onClick={() => void restoreVersion(version)}>Restore this version</button>{' '}
        <button onClick={backToDraft}>Back to the draft</button>
      </div>
    );
  }
  return (
    <div className="past-run-banner" role="status" data-testid="past-run">
      Showing run <code>{run ? shortRunId(run.id) : ''}</code> on the flow as it ran
      {run?.flowVersion !== undefined ? ` (version ${run.flowVersion})` : ''}: read-only.{' '}
      <button onClick={() => useAppStore.getState().backToDraft()}>Back to the draft</button>
    </div>
  );
}

/** How long the minimap stays after the view stops moving. */
const MAP_LINGER_MS = 1500;
/** How long it takes to fade out (the stylesheet's transition), before it goes. */
const MAP_FADE_MS = 250;

/**
 * The minimap and the zoom controls. The map shows while the view moves (and
 * a little after), or when pinned with its button: at rest it never covers
 * nodes, at any window size. Its own component, so showing it redraws only it.
 * Hidden, it is not drawn at all: each of its nodes watches the canvas store,
 * drag frames included (a hidden map made opening 5,000 nodes take 1.26× a
 * bare React Flow page instead of 1.07×).
 */
const MapWhileMoving = memo(function MapWhileMoving() {
  const [isMoving, setMoving] = useState(false);
  const [isDrawn, setDrawn] = useState(false);
  const [isPinned, setPinned] = useState(false);
  const fitFlow = useFitFlow();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Stable handlers: React Flow stores each new one with a store update that every node and edge
  // hears, so handlers made again on each render (each drag frame) tripled the work of a frame.
  const onStart = useCallback(() => {
    clearTimeout(timer.current);
    setDrawn(true);
    setMoving(true);
  }, []);
  const onEnd = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setMoving(false);
      timer.current = setTimeout(() => setDrawn(false), MAP_FADE_MS);
    }, MAP_LINGER_MS);
  }, []);
  useOnViewportChange({ onStart, onEnd });
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <>
      {(isDrawn || isPinned) && (
        <MiniMap pannable zoomable className={isMoving || isPinned ? undefined : 'is-hidden'} />
      )}
      <Controls showFitView={false}>
        <ControlButton
          onClick={fitFlow}
          title="Fit View"
          aria-label="Fit View"
          className="react-flow__controls-fitview"
        >
          <Maximize />
        </ControlButton>
        <ControlButton
          onClick={() => setPinned((pinned) => !pinned)}
          title={isPinned ? 'Hide the map' : 'Show the map'}
          aria-pressed={isPinned}
        >
          <MapIcon />
        </ControlButton>
      </Controls>
    </>
  );
});

/**
 * Cards drop their ports while FarEdges draws the edges (node-view.tsx). React
 * Flow measures a card's ports only when the card changes size, so when they
 * come back it is told to measure the cards drawn now, and `onPortsBack` is
 * given their ids (the others are declared again: redeclareUndrawn).
 */
function PortsRemeasured({ portless, onPortsBack }: { portless: boolean; onPortsBack: (drawn: Set<string>) => void }) {
  const store = useStoreApi();
  const previous = useRef(portless);
  useEffect(() => {
    const wasPortless = previous.current;
    previous.current = portless;
    if (!wasPortless || portless) return;
    const { domNode, updateNodeInternals } = store.getState();
    const updates: Parameters<ReactFlowState['updateNodeInternals']>[0] = new Map();
    for (const nodeElement of domNode?.querySelectorAll<HTMLDivElement>('.react-flow__node') ?? []) {
      const id = nodeElement.dataset.id;
      if (id) updates.set(id, { id, nodeElement, force: true });
    }
    updateNodeInternals(updates);
    onPortsBack(new Set(updates.keys()));
  }, [portless, onPortsBack, store]);
  return null;
}

/**
 * Tells the canvas when what `at` makes of the zoom changes (a level of
 * detail, whether labels show), however the zoom changed (wheel, controls, fit).
 */
function ZoomWatcher<T>({ at, onChange }: { at: (zoom: number) => T; onChange: (value: T) => void }) {
  // Undefined until React Flow has applied the first viewport: before that its zoom is a placeholder 1.
  const value = useStore((s) => (s.panZoom ? at(s.transform[2]) : undefined));
  useEffect(() => {
    if (value !== undefined) onChange(value);
  }, [value, onChange]);
  return null;
}
