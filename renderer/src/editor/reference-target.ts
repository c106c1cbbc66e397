/**
 * Where a reference chip of the inspector inserts: the template field the
 * person was last in, at its cursor; else the node's first template field.
 * A field is CodeMirror's, or the plain text box standing in when CodeMirror
 * cannot load; both register here. Module state, as only one inspector is
 * ever shown. Nothing of CodeMirror is imported here: the inspector loads this
 * module at start, and the editor library (a quarter of a megabyte) loads
 * with the first template field.
 */
export interface ReferenceTarget {
  /** The field's outer element. */
  dom: HTMLElement;
  /** Puts `text` in place of the selection, the cursor after it, and focuses the field. */
  insert(text: string): void;
}

const MARK = 'data-reference-target';
let lastFocused: ReferenceTarget | undefined;
/** The template fields on screen, by their outer element. */
const targets = new WeakMap<Element, ReferenceTarget>();

/** A template field was made: chips may insert into it. Returns its removal. */
export function registerReferenceTarget(target: ReferenceTarget): () => void {
  targets.set(target.dom, target);
  target.dom.setAttribute(MARK, '');
  return () => {
    targets.delete(target.dom);
    if (lastFocused === target) lastFocused = undefined;
  };
}

export function rememberReferenceTarget(target: ReferenceTarget): void {
  lastFocused = target;
}

/** Inserts `{{reference}}` and puts the cursor after it; false when the inspector shows no template field. */
export function insertReference(reference: string, inspector: HTMLElement | null): boolean {
  const first = inspector?.querySelector(`[${MARK}]`);
  const target =
    lastFocused && inspector?.contains(lastFocused.dom) ? lastFocused : first ? targets.get(first) : undefined;
  if (!target) return false;
  target.insert(`{{${reference}}}`);
  return true;
}
