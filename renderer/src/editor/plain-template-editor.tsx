import { useContext, useEffect, useRef } from 'react';
import { ReadOnlyContext } from './read-only-context';
import { registerReferenceTarget, rememberReferenceTarget, type ReferenceTarget } from './reference-target';
import type { TemplateEditorProps } from './template-editor-props';

/**
 * A template field as a plain text box, for when the code editor's code could
 * not load: the text stays readable and editable, and the inspector's
 * reference chips still insert at the cursor; there is no `{{` completion.
 */
export function PlainTemplateEditor({ value, onChange, label, placeholder }: TemplateEditorProps) {
  const isReadOnly = useContext(ReadOnlyContext);
  const box = useRef<HTMLTextAreaElement>(null);
  const target = useRef<ReferenceTarget | undefined>(undefined);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    target.current = {
      dom: element,
      insert(text) {
        // The box shows the new text at once, with the cursor after it; the flow hears of it as typing.
        element.setRangeText(text, element.selectionStart, element.selectionEnd, 'end');
        changed.current(element.value);
        element.focus();
      },
    };
    return registerReferenceTarget(target.current);
  }, []);

  return (
    <textarea
      ref={box}
      className="template-editor template-plain"
      data-testid={`template-${label}`}
      aria-label={label}
      title="The code editor could not load (is Flowbench still running?); reload the window to get it back"
      placeholder={placeholder ?? 'Text with {{inputs.name}} or {{nodes.id.output}}'}
      readOnly={isReadOnly}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onFocus={() => target.current && rememberReferenceTarget(target.current)}
    />
  );
}
