/** A node id not in `used`: `<base>_<n>`, short because references name it. */
export function freeNodeId(used: ReadonlySet<string>, base: string): string {
  for (let i = 1; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

/**
 * An id for a connection, a sticky note or a return value: `<base>_` and
 * eight random letters and digits. Nothing refers to these by id, so unlike
 * a node's they need not be short; random, so that two windows adding one at
 * once never take the same id (the host would refuse the later connection,
 * or take the two notes for one), and one removed is never handed out again.
 */
export function newItemId(used: ReadonlySet<string>, base: string): string {
  for (;;) {
    // Not a secret, only unlikely to meet another window's: Math.random serves in the page and in Node alike.
    const letters = Array.from({ length: 8 }, () => Math.floor(Math.random() * 36).toString(36));
    const id = `${base}_${letters.join('')}`;
    if (!used.has(id)) return id;
  }
}
