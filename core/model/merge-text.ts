import { diff3Merge } from 'node-diff3';

export interface MergedText {
  text: string;
  /** Places where both sides changed the same lines differently: the person's lines were kept there. */
  conflicts: number;
}

/**
 * The person's change (from `base`, the text they started from, to `mine`)
 * made on `theirs`, what another window stored there meanwhile: line by
 * line, as git merges, so the other window's changes to other lines stay.
 * Where both changed the same lines, the person's lines win: they asked for
 * their text back, having seen the other's on the canvas.
 */
export function mergeText(base: string, theirs: string, mine: string): MergedText {
  const lines: string[] = [];
  let conflicts = 0;
  for (const region of diff3Merge(mine.split('\n'), base.split('\n'), theirs.split('\n'))) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      conflicts++;
      lines.push(...region.conflict.a);
    }
  }
  return { text: lines.join('\n'), conflicts };
}

/**
 * A setting holding a text of several lines (a prompt, a note, a return
 * value's text) that both sides changed, merged line by line when they
 * changed different lines (mergeText without conflicts); undefined when it
 * is no such text or both changed the same or neighbouring lines. A text of
 * one line is one value: both changing it is a conflict.
 */
export function mergeLines(base: unknown, theirs: unknown, mine: unknown): string | undefined {
  if (typeof base !== 'string' || typeof theirs !== 'string' || typeof mine !== 'string') return undefined;
  if (!base.includes('\n')) return undefined;
  const { text, conflicts } = mergeText(base, theirs, mine);
  return conflicts === 0 ? text : undefined;
}
