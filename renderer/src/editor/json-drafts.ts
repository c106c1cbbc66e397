import { useSyncExternalStore } from 'react';
import type { Parameter } from '../../../core/model/parameter';
import type { TestCase } from '../../../core/model/test-cases';

/**
 * What a person typed in a JSON field that is not JSON yet (a schema half
 * written), by flow, node and field. The flow keeps its last valid value;
 * this keeps the text, so that coming back to the node shows it with its
 * error instead of the old value, and closing the window asks first.
 */
export const jsonDrafts = keyedDrafts<string>();

/** An output being written for a node to pin (pin-editor.tsx): its text, and whether that is read as JSON. */
export interface PinDraft {
  text: string;
  asJson: boolean;
}

/**
 * Drafts by key that components outside the one showing them start or add to
 * (the P key opens a pin's, a run saved as a test case joins the test cases
 * being edited), hence the listeners; each kept until saved or dropped.
 */
function keyedDrafts<T>() {
  const kept = new Map<string, T>();
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get: (key: string): T | undefined => kept.get(key),
    keep: (key: string, draft: T): void => {
      kept.set(key, draft);
      changed();
    },
    drop: (key: string): void => {
      if (kept.delete(key)) changed();
    },
    keys: (): string[] => [...kept.keys()],
    /** The draft under `key`, drawn again when it changes. */
    useDraft: (key: string): T | undefined => useSyncExternalStore(subscribe, () => kept.get(key)),
  };
}

/** Outputs being written to pin, by flow and node: kept while another node is selected, as the JSON fields' drafts are. */
export const pinDrafts = keyedDrafts<PinDraft>();

export const pinDraftKey = (flowId: string, nodeId: string): string => `${flowId}:${nodeId}:pin`;

/**
 * A flow's test cases as typed while the host would refuse them (a pattern
 * that is no regular expression), by flow: kept while another tab is open.
 */
export const testDrafts = keyedDrafts<TestCase[]>();

/** A test case input typed that does not fit its parameter ("abc" for a number), by flow, case and parameter. */
export const testInputDrafts = keyedDrafts<string>();

/** A flow's parameters as typed while the host would refuse them (an enum with no values yet), with why, by flow. */
export const parameterDrafts = keyedDrafts<{ parameters: Parameter[]; reason: string }>();

/**
 * Whether any field holds text that was not saved: closing the window asks
 * first (editor-page.tsx). An output being written to pin counts while its
 * node is on the canvas (`isShown`): one whose node was removed is not
 * asked about, and comes back with the node on Undo.
 */
export function holdsUnsavedText(isShown: (pinKey: string) => boolean): boolean {
  return (
    jsonDrafts.keys().length > 0 ||
    pinDrafts.keys().some(isShown) ||
    testDrafts.keys().length > 0 ||
    testInputDrafts.keys().length > 0 ||
    parameterDrafts.keys().length > 0
  );
}
