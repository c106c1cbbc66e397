/** Printable ASCII only: one column a character, as string-width counts it. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Rows as aligned columns two spaces apart, each as wide as its widest cell
 * (ids, names and tool names vary in length, so fixed widths broke the
 * alignment), the last one left as it is. `right` lists the columns aligned
 * to the right (counts).
 *
 * Widths are the columns a terminal gives a cell (string-width): a Chinese or
 * Japanese name or an emoji takes two per character, an accent added to a
 * letter none, where counting the string's length misaligned every line after
 * such a cell. The library is loaded only when a cell to measure is not
 * plain: as it loads it builds an emoji pattern (\p{RGI_Emoji}, 22 ms here)
 * and a grapheme segmenter (17 ms), which a list of plain ids, names and
 * dates, one column a character, does not need: `flowbench list` used 47 ms
 * less CPU (258 ms against 305, 20 runs each way).
 */
export async function columns(rows: readonly (readonly string[])[], right: readonly number[] = []): Promise<string[]> {
  // The last column is not measured: a run's usage there ("10→5 tokens") needs no width.
  const plain = rows.every((row) => row.every((cell, i) => i === row.length - 1 || PRINTABLE_ASCII.test(cell)));
  const stringWidth = plain ? (cell: string) => cell.length : (await import('string-width')).default;
  const widths: number[] = [];
  for (const row of rows) {
    for (let i = 0; i < row.length - 1; i++) widths[i] = Math.max(widths[i] ?? 0, stringWidth(row[i]!));
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell;
        const padding = ' '.repeat(widths[i]! - stringWidth(cell));
        return right.includes(i) ? padding + cell : cell + padding;
      })
      .join('  ')
      .trimEnd(),
  );
}
