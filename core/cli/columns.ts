/**
 * Rows as aligned columns two spaces apart, each as wide as its widest cell
 * (ids, names and tool names vary in length, so fixed widths broke the
 * alignment), the last one left as it is. `right` lists the columns aligned
 * to the right (counts).
 *
 * Widths are the columns a terminal gives a cell (string-width): a Chinese or
 * Japanese name or an emoji takes two per character, an accent added to a
 * letter none, where counting the string's length misaligned every line after
 * such a cell. It is loaded here, when a list is printed: the library makes an
 * Intl.Segmenter as it loads (about 7 ms), which `flowbench run` need not pay.
 */
export async function columns(rows: readonly (readonly string[])[], right: readonly number[] = []): Promise<string[]> {
  const { default: stringWidth } = await import('string-width');
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
