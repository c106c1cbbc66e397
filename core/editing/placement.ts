import type { Position } from '../model/flow';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';

/** Space kept around a new card, and the grid the canvas snaps to. */
const GAP = 40;
const GRID = 20;
/** Rows tried above and below the first choice before giving up and stacking. */
const MAX_TRIES = 40;

const snap = (value: number) => Math.round(value / GRID) * GRID;

/** Something on the canvas: a card (the card's box) or a box of its own size (a sticky note). */
export interface Placed {
  position: Position;
  width?: number;
  height?: number;
}

export interface Size {
  width: number;
  height: number;
}

const CARD: Size = { width: NODE_WIDTH, height: NODE_HEIGHT };

/** True when a box of `size` at `at` keeps GAP clear of everything placed. */
function isFree(placed: readonly Placed[], at: Position, size: Size): boolean {
  return placed.every(({ position, width = NODE_WIDTH, height = NODE_HEIGHT }) => {
    const apartX = at.x >= position.x + width + GAP || position.x >= at.x + size.width + GAP;
    const apartY = at.y >= position.y + height + GAP || position.y >= at.y + size.height + GAP;
    return apartX || apartY;
  });
}

/** The part of the canvas in view, in flow coordinates. */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const inView = (view: ViewBox, at: Position) =>
  at.x >= view.x &&
  at.y >= view.y &&
  at.x + NODE_WIDTH <= view.x + view.width &&
  at.y + NODE_HEIGHT <= view.y + view.height;

/**
 * How far the view must move (in flow units) for a card at `at` to be seen
 * whole with a margin: none when it is; as little as it takes otherwise (a
 * node added where a connection was let go at the canvas's edge).
 */
export function shiftToShow(view: ViewBox, at: Position, margin = GAP): Position {
  const along = (start: number, size: number, viewStart: number, viewSize: number) => {
    if (start - margin < viewStart) return start - margin - viewStart;
    if (start + size + margin > viewStart + viewSize) return start + size + margin - viewStart - viewSize;
    return 0;
  };
  return {
    x: along(at.x, NODE_WIDTH, view.x, view.width),
    y: along(at.y, NODE_HEIGHT, view.y, view.height),
  };
}

/** A row for boxes of `size` with GAP between them: a whole number of grid steps, so every row stays on the grid. */
const rowHeight = (size: Size) => Math.ceil((size.height + GAP) / GRID) * GRID;

/** 0, +1, -1, +2, -2 … rows away from the first choice: MAX_TRIES of them. */
function* rowOffsets(): Generator<number> {
  for (let i = 0; i < MAX_TRIES; i++) yield i % 2 === 1 ? (i + 1) / 2 : -i / 2;
}

/** The nearest free row to `start` (below first, then above), or undefined when none is free within MAX_TRIES rows. */
function freeRowNear(placed: readonly Placed[], start: Position, size: Size): Position | undefined {
  const row = rowHeight(size);
  for (const offset of rowOffsets()) {
    const at = { x: start.x, y: start.y + offset * row };
    if (isFree(placed, at, size)) return at;
  }
  return undefined;
}

/**
 * Where a node added from the palette goes so that it covers no other card
 * and can be seen: right of the selected node (the next step people add)
 * when that is in view, else around the middle of the view; the nearest
 * free row, below first, then above.
 */
export function freePosition(
  placed: readonly Placed[],
  selected: Position | undefined,
  view: ViewBox,
  size: Size = CARD,
): Position {
  if (selected) {
    const beside = freeRowNear(placed, { x: snap(selected.x + NODE_WIDTH + 2 * GAP), y: snap(selected.y) }, size);
    if (beside && inView(view, beside)) return beside;
  }
  const centre = {
    x: snap(view.x + view.width / 2 - size.width / 2),
    y: snap(view.y + view.height / 2 - size.height / 2),
  };
  return freeRowNear(placed, centre, size) ?? centre;
}

/** The nearest free spot for a card to `start` (a row below first, then above), `start` itself when none is. */
export function freeSpotNear(placed: readonly Placed[], start: Position): Position {
  const at = { x: snap(start.x), y: snap(start.y) };
  return freeRowNear(placed, at, CARD) ?? at;
}

/**
 * Cards laid out together (a selection's Layout), moved as one by whole rows,
 * below first, then above, to the nearest place where none of them covers a
 * card of `others`: a tidied selection spreads wider than it was and would
 * otherwise land on its neighbours. As they are when they cover none, or when
 * no row within MAX_TRIES is clear.
 */
export function clearOf<T extends { position: Position }>(others: readonly Placed[], moved: readonly T[]): T[] {
  const row = rowHeight(CARD);
  for (const offset of rowOffsets()) {
    const shifted = moved.map((card) => ({
      ...card,
      position: { x: card.position.x, y: card.position.y + offset * row },
    }));
    if (shifted.every((card) => isFree(others, card.position, CARD))) return shifted;
  }
  return [...moved];
}
