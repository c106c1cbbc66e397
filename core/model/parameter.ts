import { z } from 'zod';
import { PARAMETER_NAME_PATTERN } from './ids';

/** `any`: any JSON value (seed 003's trigger data), shown to templates as text or JSON. */
export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'enum', 'array', 'object', 'any'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** A typed flow parameter: the flow's trigger data and its MCP tool's inputSchema. */
export const ParameterSchema = z.lazy(() =>
  z.object({
    name: z.string().regex(PARAMETER_NAME_PATTERN, 'a parameter name is a letter or _ then letters, digits or _'),
    type: z.enum(PARAMETER_TYPES),
    description: z.string().max(2000).default(''),
    required: z.boolean().default(true),
    default: z.json().optional(),
    /** Allowed values, for `enum` parameters. */
    enum: z.array(z.string()).optional(),
    /** Element type, for `array` parameters. */
    items: z.enum(['string', 'number', 'integer', 'boolean', 'object']).optional(),
  }),
);
export type Parameter = z.infer<typeof ParameterSchema>;

/** Why a value does not fit a parameter, or undefined when it fits. */
export function checkParameterValue(parameter: Parameter, value: unknown): string | undefined {
  switch (parameter.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'expected a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'expected a number';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'expected an integer';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'enum':
      return typeof value === 'string' && (parameter.enum ?? []).includes(value)
        ? undefined
        : `expected one of ${(parameter.enum ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'array': {
      if (!Array.isArray(value)) return 'expected an array';
      const items = parameter.items;
      if (items === undefined) return undefined;
      const bad = value.findIndex(
        (item) => checkParameterValue({ ...parameter, type: items, enum: undefined }, item) !== undefined,
      );
      return bad === -1 ? undefined : `item ${bad} is not of type ${items}`;
    }
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'expected an object';
    case 'any':
      return undefined;
  }
}
