import { Suspense, useEffect, useState } from 'react';
import type { AnyEditorField as EditorField } from '../../../core/nodes/define-node';
import { suggestionsFor, type SuggestKind } from './suggestions';
import { lazyOr } from '../lazy-or';
import { PlainTemplateEditor } from './plain-template-editor';
import type { ReferenceOption } from '../../../core/editing/references';
import { blankItem } from '../../../core/editing/list-items';
import { readTextOrJson, showTextOrJson } from '../../../core/editing/text-or-json';
import { sameJson } from '../../../core/model/same-json';
import { useTypedText } from './use-typed-text';
import { EnumValuesField } from './values-field';
import { ToolChecklist, type ToolRef } from './tool-checklist';
import { jsonDrafts } from './json-drafts';
import { TemplatePreview } from './template-preview';
import { jsonPathsFor } from '../../../core/editing/output-fields';

// CodeMirror loads when the first template field is shown, not with the canvas; a plain
// text box stands in when it cannot load.
const TemplateEditor = lazyOr(() => import('./template-editor').then((m) => m.TemplateEditor), PlainTemplateEditor);
// A code field's editor adds JavaScript's highlighting, loaded only where a code node is shown.
const CodeEditor = lazyOr(() => import('./code-editor').then((m) => m.CodeEditor), PlainTemplateEditor);

interface FieldProps {
  field: EditorField;
  value: unknown;
  onChange: (value: unknown) => void;
  references: readonly ReferenceOption[];
  /** Distinguishes fields of list items, for labels and test ids. */
  path: string;
  /** The whole config the field is part of (the model field's suggestions follow the provider field). */
  config?: Readonly<Record<string, unknown>>;
  /** Whose field it is (flow and node), for text kept while it cannot be saved (json-drafts.ts). */
  scope: string;
}

/** One form field built from a node type's editor hint. */
export function ConfigField({ field, value, onChange, references, path, config, scope }: FieldProps) {
  const id = `field-${path}`;
  // Empty text, or an empty list, holds nothing to see or clear.
  const isSet = value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
  const whens = field.shownWhen === undefined ? [] : 'key' in field.shownWhen ? [field.shownWhen] : field.shownWhen;
  if (whens.some((when) => !when.is.includes(String(config?.[when.key])) && !(when.orWhenSet && isSet))) return null;
  switch (field.kind) {
    case 'template':
    case 'code': {
      // Code is JavaScript, not a template: highlighted, with no {{ completion and no preview of a run's values.
      const isCode = field.kind === 'code';
      const Editor = isCode ? CodeEditor : TemplateEditor;
      return (
        <div className="field">
          <span className="field-label">{field.label}</span>
          <Suspense fallback={<div className="template-editor" />}>
            <Editor
              label={path}
              value={typeof value === 'string' ? value : ''}
              onChange={onChange}
              references={isCode ? [] : references}
              {...(isCode ? { placeholder: 'return values.text.toUpperCase();' } : {})}
            />
          </Suspense>
          {!isCode && typeof value === 'string' && <TemplatePreview template={value} />}
          {field.help && <small>{field.help}</small>}
        </div>
      );
    }
    case 'text':
    case 'textarea':
      return (
        <label className="field" htmlFor={id}>
          <span className="field-label">{field.label}</span>
          {field.kind === 'text' ? (
            <>
              <input
                id={id}
                list={field.suggest ? `${id}-choices` : undefined}
                value={typeof value === 'string' ? value : ''}
                onChange={(e) => onChange(e.target.value)}
              />
              {field.suggest === 'paths' ? (
                <Choices
                  id={`${id}-choices`}
                  choices={jsonPathsFor(typeof config?.value === 'string' ? config.value : '', references)}
                />
              ) : (
                field.suggest && (
                  <Suggestions
                    id={`${id}-choices`}
                    kind={field.suggest}
                    context={suggestionContext(field.suggest, config)}
                  />
                )
              )}
            </>
          ) : (
            <textarea
              id={id}
              value={typeof value === 'string' ? value : ''}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
          {field.help && <small>{field.help}</small>}
        </label>
      );
    case 'number':
      return (
        <NumberField id={id} field={field} value={typeof value === 'number' ? value : undefined} onChange={onChange} />
      );
    case 'boolean':
      return (
        <label className="field inline" htmlFor={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <span className="field-label">{field.label}</span>
          {field.help && <small>{field.help}</small>}
        </label>
      );
    case 'select':
      return (
        <label className="field" htmlFor={id}>
          <span className="field-label">{field.label}</span>
          <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
            {(field.options ?? []).map((o) => (
              <option key={o} value={o}>
                {field.optionLabels?.[o] ?? o}
              </option>
            ))}
          </select>
          {field.help && <small>{field.help}</small>}
        </label>
      );
    case 'json':
      return <JsonField id={id} field={field} value={value} onChange={onChange} draftKey={`${scope}:${path}`} />;
    case 'value':
      return <TextOrJsonField id={id} field={field} value={value} onChange={onChange} />;
    case 'values':
      return (
        <label className="field" htmlFor={id}>
          <span className="field-label">{field.label}</span>
          <EnumValuesField
            id={id}
            values={Array.isArray(value) ? value.map(String) : []}
            onChange={(values) => onChange(values.length > 0 ? values : undefined)}
          />
          {field.help && <small>{field.help}</small>}
        </label>
      );
    case 'list':
      return (
        <ListField
          field={field}
          value={Array.isArray(value) ? (value as Record<string, unknown>[]) : []}
          onChange={onChange}
          references={references}
          path={path}
          scope={scope}
        />
      );
  }
}

/** Keeps what is typed ("0." on the way to "0.5") and reports only numbers. */
function NumberField({
  id,
  field,
  value,
  onChange,
}: {
  id: string;
  field: EditorField;
  value: number | undefined;
  onChange: (v: unknown) => void;
}) {
  const [text, setText] = useTypedText(
    value,
    (v) => (v === undefined ? '' : String(v)),
    (typed, v) => Number(typed) === v,
  );
  return (
    <label className="field" htmlFor={id}>
      <span className="field-label">{field.label}</span>
      <input
        id={id}
        type="number"
        value={text}
        min={field.min}
        max={field.max}
        step={field.step ?? 'any'}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '') onChange(undefined);
          else if (Number.isFinite(Number(e.target.value))) onChange(Number(e.target.value));
        }}
      />
      {field.help && <small>{field.help}</small>}
    </label>
  );
}

/** A field of one value, labelled by its hint. */
interface OneFieldProps {
  id: string;
  field: EditorField;
  value: unknown;
  onChange: (v: unknown) => void;
}

/** JSON only; text that is not JSON yet stays, with its error, until it is (see json-drafts.ts). */
function JsonField({ id, field, value, onChange, draftKey }: OneFieldProps & { draftKey: string }) {
  const [text, setText] = useTypedText(value, showJson, (typed, v) =>
    typed.trim() === '' ? v === undefined : sameJson(readTextOrJson(typed), v),
  );
  // Read off the text shown, so that a value put in by undo never shows an old error.
  const error = text.trim() === '' ? undefined : jsonError(text);
  // Back at a node whose field was left half typed: the text typed, not the value last saved.
  useEffect(() => {
    const draft = jsonDrafts.get(draftKey);
    if (draft !== undefined) setText(draft);
  }, [draftKey, setText]);
  // Text that is JSON (typed, or the value shown again) leaves no draft behind.
  useEffect(() => {
    if (!error) jsonDrafts.drop(draftKey);
  }, [error, draftKey]);
  return (
    <label className="field" htmlFor={id}>
      <span className="field-label">{field.label}</span>
      <textarea
        id={id}
        className="mono"
        value={text}
        onChange={(e) => {
          const typed = e.target.value;
          setText(typed);
          if (typed.trim() !== '' && jsonError(typed)) return jsonDrafts.keep(draftKey, typed);
          onChange(typed.trim() === '' ? undefined : (JSON.parse(typed) as unknown));
        }}
      />
      {error && <small className="error">{error}: not saved yet (the text stays here)</small>}
      {field.help && <small>{field.help}</small>}
    </label>
  );
}

/** Text or JSON, never refused (see text-or-json.ts); what is typed stays as typed while it means the same value. */
function TextOrJsonField({ id, field, value, onChange }: OneFieldProps) {
  const [text, setText] = useTypedText(value, showTextOrJson, (typed, v) => sameJson(readTextOrJson(typed), v));
  return (
    <label className="field" htmlFor={id}>
      <span className="field-label">{field.label}</span>
      <textarea
        id={id}
        className="text-input"
        rows={1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(readTextOrJson(e.target.value));
        }}
      />
      {field.help && <small>{field.help}</small>}
    </label>
  );
}

/** Why a text is not JSON, or undefined when it is. */
function jsonError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
const showJson = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

function ListField({
  field,
  value,
  onChange,
  references,
  path,
  scope,
}: {
  field: EditorField;
  value: Record<string, unknown>[];
  onChange: (v: unknown) => void;
  references: readonly ReferenceOption[];
  path: string;
  scope: string;
}) {
  const itemFields = field.itemFields ?? [];
  return (
    <fieldset className="field list-field">
      <legend>{field.label}</legend>
      {/* Above the items: what a row means is read before rows are added. */}
      {field.help && <small>{field.help}</small>}
      {value.map((item, index) => (
        <div
          className="list-item"
          key={index}
          draggable
          onDragStart={(e) => {
            e.dataTransfer.setData('application/x-flowbench-list-item', String(index));
            e.dataTransfer.effectAllowed = 'move';
          }}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes('application/x-flowbench-list-item')) e.preventDefault();
          }}
          onDrop={(e) => {
            const from = Number(e.dataTransfer.getData('application/x-flowbench-list-item'));
            if (Number.isInteger(from) && from !== index) onChange(moved(value, from, index));
          }}
        >
          {itemFields.map((sub) => (
            <ConfigField
              key={sub.key}
              field={sub}
              path={`${path}.${index}.${sub.key}`}
              value={item[sub.key]}
              config={item}
              scope={scope}
              references={references}
              onChange={(v) => onChange(value.map((it, i) => (i === index ? { ...it, [sub.key]: v } : it)))}
            />
          ))}
          <button
            className="small"
            aria-label={`Move ${field.label} ${index + 1} up`}
            disabled={index === 0}
            onClick={() => onChange(moved(value, index, index - 1))}
          >
            ↑
          </button>
          <button
            className="small"
            aria-label={`Move ${field.label} ${index + 1} down`}
            disabled={index === value.length - 1}
            onClick={() => onChange(moved(value, index, index + 1))}
          >
            ↓
          </button>
          <button
            className="small"
            aria-label={`Remove ${field.label} ${index + 1}`}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button className="small" onClick={() => onChange([...value, blankItem(field, value)])}>
        Add {field.label.toLowerCase().replace(/s$/, '')}
      </button>
      {field.choose === 'tools' && <ToolChecklist chosen={value as unknown as ToolRef[]} onChange={onChange} />}
    </fieldset>
  );
}

/** What a suggestion list depends on: the provider a model field's node names, the server a tool field's item names. */
function suggestionContext(kind: SuggestKind, config: Record<string, unknown> | undefined): string {
  const key = kind === 'models' ? 'provider' : kind === 'tools' ? 'server' : undefined;
  const value = key ? config?.[key] : undefined;
  return typeof value === 'string' ? value : '';
}

/** The choices a suggesting text field offers (see suggestionsFor). */
export function Suggestions({ id, kind, context }: { id: string; kind: SuggestKind; context: string }) {
  const [choices, setChoices] = useState<readonly string[]>([]);
  useEffect(() => {
    let isCurrent = true;
    void suggestionsFor(kind, context).then((list) => isCurrent && setChoices(list));
    return () => {
      isCurrent = false;
    };
  }, [kind, context]);
  return <Choices id={id} choices={choices} />;
}

/** What a text field offers as it is typed in (a datalist): a suggestion list's, or a rule's JSONPaths. */
function Choices({ id, choices }: { id: string; choices: readonly string[] }) {
  return (
    <datalist id={id} data-testid={id}>
      {choices.map((choice) => (
        <option key={choice} value={choice} />
      ))}
    </datalist>
  );
}

/** The list with the item at `from` moved to `to` (the order return values are sent in, for one). */
function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
