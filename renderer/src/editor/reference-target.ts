import { EditorView } from '@codemirror/view';

/**
 * Where a reference chip of the inspector inserts: the template field the
 * person was last in, at its cursor; else the node's first template field.
 * Module state, as only one inspector is ever shown.
 */
let lastFocused: EditorView | undefined;

export function rememberReferenceTarget(view: EditorView): void {
  lastFocused = view;
}

/** Inserts `{{reference}}` and puts the cursor after it; false when the inspector shows no template field. */
export function insertReference(reference: string, inspector: HTMLElement | null): boolean {
  const first = inspector?.querySelector<HTMLElement>('.template-editor .cm-editor');
  const view =
    lastFocused && inspector?.contains(lastFocused.dom) ? lastFocused : first ? EditorView.findFromDOM(first) : null;
  if (!view) return false;
  const text = `{{${reference}}}`;
  const { from, to } = view.state.selection.main;
  view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
  view.focus();
  return true;
}
