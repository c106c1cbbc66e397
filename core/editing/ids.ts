/** A node id not in `used`: `<base>_<n>`, short because references name it. */
export function freeNodeId(used: ReadonlySet<string>, base: string): string {
  for (let i = 1; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** An edge id not in `used`: `e<n>`, starting after the edges there are. */
export function freeEdgeId(used: ReadonlySet<string>): string {
  for (let i = used.size + 1; ; i++) if (!used.has(`e${i}`)) return `e${i}`;
}
