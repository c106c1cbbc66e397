/**
 * A list kept in the browser's storage beside the page's own copy, so that a
 * reload finds it (edits waiting to be saved, a chat's turns): written whole,
 * removed once empty. Storage that is full or refused leaves the page's copy
 * as the only one, as it was before.
 */
export function keepList(storage: Storage, key: string, items: readonly unknown[]): void {
  try {
    if (items.length === 0) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(items));
  } catch {
    // Full or refused: the page still has the list.
  }
}

/** The list kept under `key`, as `read` accepts it; none when there is none or it cannot be read. */
export function readList<T>(storage: Storage, key: string, read: (value: unknown) => T[]): T[] {
  try {
    const text = storage.getItem(key);
    return text ? read(JSON.parse(text) as unknown) : [];
  } catch {
    return [];
  }
}
