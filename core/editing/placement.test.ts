import { describe, expect, it } from 'vitest';
import { NODE_HEIGHT, NODE_WIDTH } from './layout';
import { freePosition, shiftToShow } from './placement';

const card = (x: number, y: number) => ({ position: { x, y } });
const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) < NODE_WIDTH && Math.abs(a.y - b.y) < NODE_HEIGHT;

/** A view 1,000 × 600 wide from the origin. */
const view = { x: -100, y: -100, width: 1200, height: 700 };

describe('freePosition (issue 17, point 4)', () => {
  it('puts a new node right of the selected one, on its row when that is free', () => {
    const at = freePosition([card(0, 100)], { x: 0, y: 100 }, view);
    expect(at.y).toBe(100);
    expect(at.x).toBeGreaterThanOrEqual(NODE_WIDTH);
  });

  it('takes the nearest free row when the place beside the selection is taken', () => {
    const nodes = [card(0, 100), card(300, 100), card(300, 240)];
    const at = freePosition(nodes, { x: 0, y: 100 }, view);
    for (const node of nodes) expect(overlaps(at, node.position)).toBe(false);
    expect(at.x).toBe(300);
  });

  it('with nothing selected, uses the middle of the view and moves off the cards there', () => {
    const nodes = [card(390, 255), card(390, 400)];
    const at = freePosition(nodes, undefined, { x: 0, y: 0, width: 1000, height: 600 });
    for (const node of nodes) expect(overlaps(at, node.position)).toBe(false);
    expect(Math.abs(at.x - 390)).toBeLessThan(NODE_WIDTH);
  });

  it('goes to the middle of the view when the place beside the selection is out of view', () => {
    const at = freePosition([card(900, 100)], { x: 900, y: 100 }, view);
    expect(at.x + NODE_WIDTH).toBeLessThanOrEqual(view.x + view.width);
    expect(overlaps(at, { x: 900, y: 100 })).toBe(false);
  });
});

describe('shiftToShow: the least the view moves for a new card to be seen whole', () => {
  const view = { x: 0, y: 0, width: 1000, height: 600 };
  it('does not move for a card in view', () => {
    expect(shiftToShow(view, { x: 400, y: 200 })).toEqual({ x: 0, y: 0 });
  });
  it('moves right and down for a card past the right and bottom edges, keeping a margin', () => {
    expect(shiftToShow(view, { x: 950, y: 580 })).toEqual({
      x: 950 + NODE_WIDTH + 40 - 1000,
      y: 580 + NODE_HEIGHT + 40 - 600,
    });
  });
  it('moves left and up for a card past the left and top edges', () => {
    expect(shiftToShow(view, { x: -100, y: 10 })).toEqual({ x: -140, y: -30 });
  });
});
