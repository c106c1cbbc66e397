import type { Extension } from '@codemirror/state';
import type { ReferenceOption } from '../../../core/editing/references';

/** What a template field's editor takes: the CodeMirror one, or the plain one when that cannot load. */
export interface TemplateEditorProps {
  value: string;
  onChange: (value: string) => void;
  references: readonly ReferenceOption[];
  label: string;
  placeholder?: string;
  /** More CodeMirror extensions (a code field's language); the plain editor has none. */
  extensions?: readonly Extension[];
}
