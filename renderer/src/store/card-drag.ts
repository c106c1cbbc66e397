/**
 * Whether cards are being dragged on the canvas, as React Flow last said
 * (canvas.tsx sets it). Kept out of the store's state: a drag's start and end
 * should not wake every store subscriber.
 */
let isCardDragged = false;

export const cardDragged = (): boolean => isCardDragged;

export function setCardDragged(isDragged: boolean): void {
  isCardDragged = isDragged;
}
