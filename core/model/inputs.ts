import { FlowbenchError } from './errors';
import { checkParameterValue, type Parameter } from './parameter';

/**
 * Checks run inputs against the flow's parameters and fills defaults.
 * Missing required inputs are MISSING_VARIABLES (each name listed); wrong
 * types and unknown names are VALIDATION_ERROR, one problem per parameter.
 */
export function prepareInputs(
  parameters: readonly Parameter[],
  raw: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const missing = parameters
    .filter((p) => p.required && p.default === undefined && raw[p.name] === undefined)
    .map((p) => p.name);
  if (missing.length > 0) {
    throw new FlowbenchError(
      'MISSING_VARIABLES',
      `missing required input${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      { missing },
    );
  }
  const known = new Set(parameters.map((p) => p.name));
  const problems: { parameter: string; message: string }[] = [];
  for (const name of Object.keys(raw)) {
    if (!known.has(name)) {
      problems.push({
        parameter: name,
        message: `unknown input "${name}" (parameters: ${[...known].join(', ') || 'none'})`,
      });
    }
  }
  const inputs: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = raw[parameter.name] ?? parameter.default;
    if (value === undefined) continue;
    const reason = checkParameterValue(parameter, value);
    if (reason)
      problems.push({
        parameter: parameter.name,
        message: `input "${parameter.name}": ${reason}, got ${JSON.stringify(value)}`,
      });
    inputs[parameter.name] = value;
  }
  if (problems.length > 0) {
    const count = problems.length === 1 ? 'an input does' : `${problems.length} inputs do`;
    throw new FlowbenchError('VALIDATION_ERROR', `${count} not fit the flow's parameters`, { problems });
  }
  return inputs;
}

/**
 * Turns `--input k=v` strings into typed values: numbers, booleans and JSON
 * for arrays and objects, following each parameter's type.
 */
export function coerceTextInput(parameter: Parameter | undefined, text: string): unknown {
  switch (parameter?.type) {
    case 'number':
    case 'integer': {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? value : text;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array':
    case 'object':
    case 'any':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/**
 * Why a value typed as text cannot be sent for a parameter, checked as the
 * host will (coerceTextInput, then the parameter's type); undefined when it
 * can. Empty means "not given": wrong only for a required parameter with no default.
 */
export function textInputProblem(parameter: Parameter, text: string | undefined): string | undefined {
  if (text === undefined || text === '') {
    return parameter.required && parameter.default === undefined ? 'required' : undefined;
  }
  return checkParameterValue(parameter, coerceTextInput(parameter, text));
}
