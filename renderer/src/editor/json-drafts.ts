/**
 * What a person typed in a JSON field that is not JSON yet (a schema half
 * written), by flow, node and field. The flow keeps its last valid value;
 * this keeps the text, so that coming back to the node shows it with its
 * error instead of the old value, and closing the window asks first.
 */
const drafts = new Map<string, string>();

export const jsonDrafts = {
  get: (key: string): string | undefined => drafts.get(key),
  keep: (key: string, text: string): void => void drafts.set(key, text),
  drop: (key: string): void => void drafts.delete(key),
  /** Whether any field holds text that was not saved. */
  any: (): boolean => drafts.size > 0,
};
