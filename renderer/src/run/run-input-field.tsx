import type { Parameter } from '../../../core/model/parameter';
import { useRef, useState } from 'react';
import { stringifyValue } from '../../../core/model/template';
import { dataUrlBytes, dataUrlType } from '../../../core/model/data-urls';
import { formatBytes } from './format-bytes';

/** The largest picture the Run form takes: what Anthropic's API takes in one image (OpenAI's takes more). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** One parameter of the Run form, with the widget its type calls for. */
export function RunInputField({
  parameter,
  text,
  problem,
  onChange,
  idPrefix = 'run-input',
}: {
  parameter: Parameter;
  /** Where the field's id starts: a test case's fields are apart from the Run form's. */
  idPrefix?: string;
  text: string | undefined;
  /** Why the value cannot be sent (see textInputProblem), once it matters. */
  problem: string | undefined;
  onChange: (text: string) => void;
}) {
  const id = `${idPrefix}-${parameter.name}`;
  const fallback = parameter.default === undefined ? '' : stringifyValue(parameter.default);
  const common = {
    id,
    'aria-invalid': problem !== undefined,
    'aria-describedby': problem ? `${id}-problem` : undefined,
  };
  let widget;
  switch (parameter.type) {
    case 'boolean':
    case 'enum': {
      const options = parameter.type === 'boolean' ? ['true', 'false'] : (parameter.enum ?? []);
      widget = (
        <select {...common} value={text ?? ''} onChange={(e) => onChange(e.target.value)}>
          <option value="">{fallback ? `default: ${fallback}` : parameter.required ? 'choose…' : 'not given'}</option>
          {options.map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      );
      break;
    }
    case 'number':
    case 'integer':
      widget = (
        <input
          {...common}
          inputMode={parameter.type === 'integer' ? 'numeric' : 'decimal'}
          value={text ?? ''}
          placeholder={fallback || parameter.description}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'array':
    case 'object':
    case 'any':
      widget = (
        <textarea
          {...common}
          className="json-input"
          rows={3}
          value={text ?? ''}
          placeholder={
            fallback ||
            (parameter.type === 'array'
              ? '["a", "b"]'
              : parameter.type === 'any'
                ? 'text, or JSON'
                : '{"key": "value"}')
          }
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default:
      // A box of several lines, growing with its text: an <input> turns the line breaks of a pasted
      // ticket or article into spaces, and the run would get text other than what was pasted.
      // An attached picture is its data: URL, shown as the picture (a vision model gets it as one).
      widget =
        text !== undefined && dataUrlType(text) ? (
          <AttachedImage url={text} name={parameter.name} onRemove={() => onChange('')} />
        ) : (
          <>
            <textarea
              {...common}
              className="text-input"
              rows={1}
              value={text ?? ''}
              placeholder={fallback || parameter.description}
              onChange={(e) => onChange(e.target.value)}
            />
            <AttachImage name={parameter.name} onAttach={onChange} />
          </>
        );
  }
  return (
    <label className="field" htmlFor={id}>
      <span className="field-label">
        {parameter.name}
        {parameter.required && parameter.default === undefined && (
          <span className="required" title="required">
            {' '}
            *
          </span>
        )}{' '}
        <small>
          ({parameter.type}
          {parameter.required ? '' : ', optional'})
        </small>
      </span>
      {widget}
      {problem && (
        <small className="error" id={`${id}-problem`}>
          {problem}
        </small>
      )}
    </label>
  );
}

/** Attach an image…: a picture from disk as the text's data: URL, as chat playgrounds take one. */
export function AttachImage({ name, onAttach }: { name: string; onAttach: (dataUrl: string) => void }) {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const chooser = useRef<HTMLInputElement>(null);
  const attach = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_IMAGE_BYTES) {
      setProblem(
        `${file.name} is ${formatBytes(file.size)}; a picture here is at most ${formatBytes(MAX_IMAGE_BYTES)}`,
      );
      return;
    }
    setProblem(undefined);
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && onAttach(reader.result);
    reader.onerror = () => setProblem(`${file.name} could not be read`);
    reader.readAsDataURL(file);
  };
  return (
    <span className="attach-image">
      <button type="button" className="small" onClick={() => chooser.current?.click()}>
        Attach an image…
      </button>
      <input
        ref={chooser}
        type="file"
        hidden
        accept={IMAGE_TYPES}
        aria-label={`Attach an image to ${name}`}
        onChange={(e) => {
          attach(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {problem && (
        <small className="error" role="alert">
          {problem}
        </small>
      )}
    </span>
  );
}

/** A picture given as the parameter's value: shown, with its type and size, and Remove. */
function AttachedImage({ url, name, onRemove }: { url: string; name: string; onRemove: () => void }) {
  const type = dataUrlType(url) ?? '';
  return (
    <span className="attached-image data-url">
      {type.startsWith('image/') && <img src={url} alt={`the image given as ${name}`} />}
      <small className="muted">
        {type}, {formatBytes(dataUrlBytes(url))}, sent as its data: URL{' '}
        <button type="button" className="small" onClick={onRemove}>
          Remove
        </button>
      </small>
    </span>
  );
}
