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

/** `mergeText` when it merges cleanly (no lines both changed); undefined otherwise. */
export function mergeLines(base: string, theirs: string, mine: string): string | undefined {
  const { text, conflicts } = mergeText(base, theirs, mine);
  return conflicts === 0 ? text : undefined;
}
