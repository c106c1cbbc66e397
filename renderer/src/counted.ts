/** "1 node", "3 nodes": a count with its noun, which takes an s for any number but one. */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
