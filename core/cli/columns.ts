/**
 * Rows as aligned columns two spaces apart, each as wide as its widest cell
 * (ids, names and tool names vary in length, so fixed widths broke the
 * alignment), the last one left as it is. `right` lists the columns aligned
 * to the right (counts).
 */
export function columns(rows: readonly (readonly string[])[], right: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (let i = 0; i < row.length - 1; i++) widths[i] = Math.max(widths[i] ?? 0, row[i]!.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1) return cell;
        return right.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd(),
  );
}
