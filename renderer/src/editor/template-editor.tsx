import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, placeholder as placeholderExtension, tooltips } from '@codemirror/view';
import { minimalSetup } from 'codemirror';
import { useContext, useEffect, useRef } from 'react';
import type { ReferenceOption } from '../../../core/editing/references';
import { ReadOnlyContext } from './read-only-context';
import { registerReferenceTarget, rememberReferenceTarget, type ReferenceTarget } from './reference-target';
import type { TemplateEditorProps } from './template-editor-props';

/** Completes `{{` with the references this node can use. */
function referenceCompletions(options: () => readonly ReferenceOption[]) {
  return (context: CompletionContext): CompletionResult | null => {
    // A field of an array's first item is written `items[0].name`.
    const match = context.matchBefore(/\{\{\s*[\w.[\]-]*$/);
    if (!match) return null;
    const typedFrom = match.from + match.text.search(/[\w.[\]-]*$/);
    return {
      from: typedFrom,
      options: options().map((o) => ({
        label: o.label,
        detail: o.detail,
        type: o.label.startsWith('inputs.') ? 'variable' : 'property',
        apply: `${o.label}}}`,
      })),
      validFor: /^[\w.[\]-]*$/,
    };
  };
}

/** A CodeMirror 6 editor for a template field, with `{{` reference completion. */
export function TemplateEditor(props: TemplateEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;
  const isReadOnly = useContext(ReadOnlyContext);
  const editable = useRef(new Compartment());
  const readOnlyNow = useRef(isReadOnly);
  readOnlyNow.current = isReadOnly;

  useEffect(() => {
    if (!host.current) return;
    const target: ReferenceTarget = {
      dom: host.current,
      insert(text) {
        const editor = view.current;
        if (!editor) return;
        const { from, to } = editor.state.selection.main;
        editor.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
        editor.focus();
      },
    };
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          minimalSetup,
          ...(latest.current.extensions ?? []),
          editable.current.of(EditorView.editable.of(!readOnlyNow.current)),
          EditorView.lineWrapping,
          placeholderExtension(latest.current.placeholder ?? 'Text with {{inputs.name}} or {{nodes.id.output}}'),
          // In the page, not the side panel: the panel's edge cut the list of references off.
          tooltips({ parent: document.body }),
          autocompletion({ override: [referenceCompletions(() => latest.current.references)], activateOnTyping: true }),
          EditorView.contentAttributes.of({ 'aria-label': latest.current.label }),
          EditorView.domEventHandlers({ focus: () => rememberReferenceTarget(target) }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            // A value set from outside (undo, a connection filling it in) is no edit of the person's.
            const text = update.state.doc.toString();
            if (text !== latest.current.value) latest.current.onChange(text);
          }),
        ],
      }),
    });
    view.current = editor;
    const unregister = registerReferenceTarget(target);
    return () => {
      unregister();
      editor.destroy();
    };
  }, []);

  // Back to the draft from a version or a past run: the same field takes typing again.
  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(EditorView.editable.of(!isReadOnly)) });
  }, [isReadOnly]);

  // Undo, redo and reloads change the value from outside: show it.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== props.value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
    }
  }, [props.value]);

  return <div className="template-editor" ref={host} data-testid={`template-${props.label}`} />;
}
