import { javascript } from '@codemirror/lang-javascript';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { TemplateEditor } from './template-editor';
import type { TemplateEditorProps } from './template-editor-props';

/**
 * Colours from the page's theme (styles.css, --code-*): CodeMirror's default
 * style is drawn for a light page, and its dark blue names were hard to read
 * on the dark one.
 */
const THEMED = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword],
    color: 'var(--code-keyword)',
  },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-number)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.propertyName, tags.function(tags.variableName)], color: 'var(--code-name)' },
]);
const JAVASCRIPT = [javascript(), syntaxHighlighting(THEMED)];

/** A code node's code: the template editor with JavaScript's highlighting and no `{{` completion. */
export function CodeEditor(props: TemplateEditorProps) {
  return <TemplateEditor {...props} references={[]} extensions={JAVASCRIPT} />;
}
