/** A rectangle: on the canvas (flow coordinates) or on screen (a bounding box). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** True when two boxes do not overlap (touching edges allowed). */
export function boxesApart(a: Box, b: Box): boolean {
  return a.x >= b.x + b.width || b.x >= a.x + a.width || a.y >= b.y + b.height || b.y >= a.y + a.height;
}
