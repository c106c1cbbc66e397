import type { Parameter } from '../../../core/model/parameter';
import { stringifyValue } from '../../../core/model/template';

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
      widget = (
        <textarea
          {...common}
          className="text-input"
          rows={1}
          value={text ?? ''}
          placeholder={fallback || parameter.description}
          onChange={(e) => onChange(e.target.value)}
        />
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
