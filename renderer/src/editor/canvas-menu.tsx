import { useCallback, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { Edge, Node } from '@xyflow/react';
import { canDeactivate, canPin } from '../../../core/editing/deactivate';
import { typesToInsert } from '../../../core/editing/edits';
import type { Position } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { EDITOR_COMMANDS } from '../app-commands';
import { useAppStore, type AppState } from '../store/app-store';
import { readOnlyShown } from '../store/versions-slice';
import { useModalDialog } from '../use-modal-dialog';
import { moveFocus, NodeTypeMenu } from './node-type-menu';
import { splitNoteIds } from './note-ids';
import { pinLabel } from './pin-editor';

/** What was right-clicked: the selection (a card or note, added to it), empty canvas, or an edge. */
export type MenuTarget = { kind: 'selection' } | { kind: 'pane'; at: Position } | { kind: 'edge'; edgeId: string };

interface MenuItem {
  label: string;
  /** The shortcut that does the same, shown beside it. */
  keys?: string;
  /** Changes the flow: not offered over a past run or a version, which are read-only. */
  edits?: boolean;
  run: () => void;
}

/** What the menu offers; an item with a shortcut runs the command that shortcut runs (EDITOR_COMMANDS), so the two never differ. */
function itemsFor(
  target: MenuTarget,
  state: AppState,
  open: { addHere: (at: Position) => void; insertInto: (edgeId: string) => void },
): MenuItem[] {
  const command = (name: keyof typeof EDITOR_COMMANDS) => () => EDITOR_COMMANDS[name](useAppStore.getState());
  if (target.kind === 'pane')
    return [
      { label: 'Add a node here…', keys: 'Double-click', edits: true, run: () => open.addHere(target.at) },
      { label: 'Add a sticky note here', edits: true, run: () => void state.addNote(target.at) },
      { label: 'Paste', keys: 'Ctrl+V', edits: true, run: command('paste') },
      { label: 'Select all', keys: 'Ctrl+A', run: command('select-all') },
      { label: 'Layout', keys: 'Ctrl+Shift+L', edits: true, run: command('auto-layout') },
      { label: 'Fit view', keys: 'Shift+1', run: command('fit-view') },
    ];
  if (target.kind === 'edge')
    return [
      // In a loop edge, the node joins the loop as its last node (insertNodeChange).
      { label: 'Insert a node…', edits: true, run: () => open.insertInto(target.edgeId) },
      { label: 'Delete', keys: 'Delete', edits: true, run: () => state.removeEdges([target.edgeId]) },
    ];
  const nodes = state.flow?.nodes.filter((n) => state.selectedNodes.includes(n.id) && canDeactivate(n)) ?? [];
  const single =
    state.selectedNodes.length === 1 ? state.flow?.nodes.find((n) => n.id === state.selectedNodes[0]) : undefined;
  return [
    ...(single ? [{ label: 'Rename', keys: 'F2', edits: true, run: command('rename') }] : []),
    // Runs the draft, which a past run or a version shown over the canvas is not: offered with the edits.
    ...(single && !nodeRegistry.get(single.type)?.isResult
      ? [{ label: 'Run to here', edits: true, run: () => void state.runToHere(single.id) }]
      : []),
    ...(single && canPin(single)
      ? [{ label: pinLabel(state, single), keys: 'P', edits: true, run: command('pin') }]
      : []),
    ...(nodes.length > 0
      ? [
          {
            label: nodes.every((n) => n.disabled) ? 'Activate' : 'Deactivate',
            keys: 'D',
            edits: true,
            run: command('deactivate'),
          },
        ]
      : []),
    // n8n's tidy-up of a selection: these nodes among themselves, the others left alone.
    ...(splitNoteIds(state.selectedNodes).nodeIds.length >= 2
      ? [{ label: 'Layout these', keys: 'Ctrl+Shift+L', edits: true, run: command('auto-layout') }]
      : []),
    { label: 'Copy', keys: 'Ctrl+C', run: command('copy') },
    { label: 'Duplicate', keys: 'Ctrl+D', edits: true, run: command('duplicate') },
    { label: 'Delete', keys: 'Delete', edits: true, run: command('delete') },
  ];
}

/**
 * The canvas's right-click menu, as n8n's, Rivet's and ComfyUI's: on a card
 * or note what can be done to the selection, on empty canvas what can be
 * added there, on an edge inserting a node or removing it. Over a past run
 * or a version only what does not edit. The arrow keys walk it (as the menu
 * of node types); Escape or a click outside closes it.
 */
export function CanvasMenu({
  screen,
  target,
  onAddHere,
  onInsertInto,
  onClose,
}: {
  screen: { x: number; y: number };
  target: MenuTarget;
  onAddHere: (at: Position) => void;
  onInsertInto: (edgeId: string) => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const state = useAppStore.getState();
  const isReadOnly = readOnlyShown(state) !== undefined;
  const items = itemsFor(target, state, { addHere: onAddHere, insertInto: onInsertInto }).filter(
    (item) => !(isReadOnly && item.edits),
  );
  // Opened whole: kept off the window's right and bottom edges.
  const left = Math.max(8, Math.min(screen.x, window.innerWidth - 240));
  const top = Math.max(8, Math.min(screen.y, window.innerHeight - items.length * 34 - 16));
  return (
    <dialog
      ref={dialog}
      className="canvas-menu"
      aria-label={target.kind === 'pane' ? 'Canvas' : target.kind === 'edge' ? 'Edge' : 'Selection'}
      style={{ left, top }}
      onClose={onClose}
      // A click on the backdrop lands on the dialog itself: outside its items, it closes.
      onClick={(e) => e.target === e.currentTarget && dialog.current?.close()}
      onContextMenu={(e) => {
        e.preventDefault();
        dialog.current?.close();
      }}
      onKeyDown={(e) => moveFocus(e, dialog.current)}
    >
      <div role="menu">
        {items.map((item, i) => (
          <button
            key={item.label}
            role="menuitem"
            autoFocus={i === 0}
            onClick={() => {
              // Closed first: what the item opens (a menu of node types) is then on top.
              dialog.current?.close();
              item.run();
            }}
          >
            <span>{item.label}</span>
            {item.keys && <kbd>{item.keys}</kbd>}
          </button>
        ))}
      </div>
    </dialog>
  );
}

type Screen = { x: number; y: number };

/**
 * The canvas's right-click handlers for React Flow (each stable: React Flow
 * stores a new one with an update every card hears) and what they open.
 * `placeOf` is where a node added at a click goes (as a double-click adds it);
 * `addHere` opens the menu of node types there.
 */
export function useCanvasMenu(
  placeOf: (event: ReactMouseEvent | MouseEvent) => { screen: Screen; at: Position } | undefined,
  addHere: (screen: Screen, at: Position) => void,
  /** Far out, edges are drawn without pointer events (FarEdges): the edge a click on the pane is on. */
  edgeUnder: (event: ReactMouseEvent | MouseEvent) => Edge | undefined,
) {
  const [menu, setMenu] = useState<{ screen: Screen; target: MenuTarget } | undefined>(undefined);
  const [inserting, setInserting] = useState<{ screen: Screen; edgeId: string } | undefined>(undefined);
  const open = (event: ReactMouseEvent | MouseEvent, target: MenuTarget) => {
    event.preventDefault();
    setMenu({ screen: { x: event.clientX, y: event.clientY }, target });
  };
  const onNodeContextMenu = useCallback((event: ReactMouseEvent, node: Node) => {
    const state = useAppStore.getState();
    // As in n8n: a card outside the selection becomes the selection; one inside keeps it whole.
    if (!state.selectedNodes.includes(node.id)) state.setSelection([node.id], []);
    open(event, { kind: 'selection' });
  }, []);
  const onSelectionContextMenu = useCallback((event: ReactMouseEvent) => open(event, { kind: 'selection' }), []);
  const onEdgeContextMenu = useCallback((event: ReactMouseEvent | MouseEvent, edge: Edge) => {
    useAppStore.getState().setSelection([], [edge.id]);
    open(event, { kind: 'edge', edgeId: edge.id });
  }, []);
  const onPaneContextMenu = useCallback(
    (event: ReactMouseEvent | MouseEvent) => {
      const edge = edgeUnder(event);
      if (edge) return onEdgeContextMenu(event, edge);
      const place = placeOf(event);
      if (place) open(event, { kind: 'pane', at: place.at });
    },
    [placeOf, edgeUnder, onEdgeContextMenu],
  );
  const shown = menu && (
    <CanvasMenu
      screen={menu.screen}
      target={menu.target}
      onAddHere={(at) => addHere(menu.screen, at)}
      onInsertInto={(edgeId) => setInserting({ screen: menu.screen, edgeId })}
      onClose={() => setMenu(undefined)}
    />
  );
  const insert = inserting && (
    <NodeTypeMenu
      label="Insert a node into this edge"
      types={typesToInsert()}
      screen={inserting.screen}
      onChoose={(type) => useAppStore.getState().insertNode(type, inserting.edgeId)}
      onClose={() => setInserting(undefined)}
    />
  );
  return {
    handlers: { onNodeContextMenu, onSelectionContextMenu, onEdgeContextMenu, onPaneContextMenu },
    menus: (
      <>
        {shown}
        {insert}
      </>
    ),
  };
}
