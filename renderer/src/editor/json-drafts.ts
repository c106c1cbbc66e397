import { useSyncExternalStore } from 'react';

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
};

/** An output being written for a node to pin (pin-editor.tsx): its text, and whether that is read as JSON. */
export interface PinDraft {
  text: string;
  asJson: boolean;
}

// By flow and node. Kept while another node is selected, as the JSON fields' drafts are; the
// P key opens one from outside the inspector, hence the listeners.
const pins = new Map<string, PinDraft>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export const pinDrafts = {
  get: (key: string): PinDraft | undefined => pins.get(key),
  keep: (key: string, draft: PinDraft): void => {
    pins.set(key, draft);
    changed();
  },
  drop: (key: string): void => {
    if (pins.delete(key)) changed();
  },
};

export const pinDraftKey = (flowId: string, nodeId: string): string => `${flowId}:${nodeId}:pin`;

/** The pin being written for a node, if one is. */
export function usePinDraft(key: string): PinDraft | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => pins.get(key),
  );
}

/**
 * Whether any field holds text that was not saved: closing the window asks
 * first (editor-page.tsx). An output being written to pin counts while its
 * node is on the canvas (`isShown`): one whose node was removed is not
 * asked about, and comes back with the node on Undo.
 */
export function holdsUnsavedText(isShown: (pinKey: string) => boolean): boolean {
  return drafts.size > 0 || [...pins.keys()].some(isShown);
}
