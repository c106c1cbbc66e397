import type { EditorView } from '@codemirror/view';

/**
 * Where a reference chip of the inspector inserts: the template field the
 * person was last in, at its cursor; else the node's first template field.
 * Module state, as only one inspector is ever shown. Only CodeMirror's types
 * are imported here: the inspector loads this module at start, and the editor
 * library (a quarter of a megabyte) loads with the first template field.
 */
let lastFocused: EditorView | undefined;
/** The template fields on screen, by their outer element. */
const editors = new WeakMap<Element, EditorView>();

/** A template field was made: chips may insert into it. Returns its removal. */
export function registerReferenceTarget(view: EditorView): () => void {
  editors.set(view.dom, view);
  return () => {
    editors.delete(view.dom);
    if (lastFocused === view) lastFocused = undefined;
  };
}

export function rememberReferenceTarget(view: EditorView): void {
  lastFocused = view;
}

/** Inserts `{{reference}}` and puts the cursor after it; false when the inspector shows no template field. */
export function insertReference(reference: string, inspector: HTMLElement | null): boolean {
  const first = inspector?.querySelector<HTMLElement>('.template-editor .cm-editor');
  const view =
    lastFocused && inspector?.contains(lastFocused.dom) ? lastFocused : first ? editors.get(first) : undefined;
  if (!view) return false;
  const text = `{{${reference}}}`;
  const { from, to } = view.state.selection.main;
  view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
  view.focus();
  return true;
}
