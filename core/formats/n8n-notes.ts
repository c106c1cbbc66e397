import { MAX_NOTE_CHARS, NOTE_MIN_SIZE, NOTE_SIZE, type NoteColor } from '../model/notes';
import type { N8nNode } from './n8n-model';
import { asString } from './shared';

/** n8n's sticky colours by number (1 the default yellow), as the nearest of Flowbench's. */
const COLORS: Record<number, NoteColor> = {
  1: 'yellow',
  2: 'pink',
  3: 'pink',
  4: 'green',
  5: 'blue',
  6: 'purple',
  7: 'gray',
};
const MAX_SIDE = 4000;

/**
 * An n8n sticky note as a Flowbench note: its Markdown text, colour and size
 * (spread as the canvas is, `scale`, so that it still covers the nodes it framed).
 */
export function n8nNote(node: N8nNode, id: string, position: { x: number; y: number }, scale: number) {
  const p = node.parameters;
  const side = (value: unknown, fallback: number, min: number) =>
    Math.min(MAX_SIDE, Math.max(min, Math.round((typeof value === 'number' ? value : fallback) * scale)));
  return {
    id,
    // Longer than a note holds only in a hand-made file: the import says so (n8n.ts).
    text: asString(p.content).slice(0, MAX_NOTE_CHARS),
    position,
    width: side(p.width, NOTE_SIZE.width, NOTE_MIN_SIZE.width),
    height: side(p.height, NOTE_SIZE.height, NOTE_MIN_SIZE.height),
    color: COLORS[typeof p.color === 'number' ? p.color : 1] ?? 'yellow',
  };
}
