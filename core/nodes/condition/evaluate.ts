import { JSONPath } from 'jsonpath-plus';
import { stringifyValue } from '../../model/template';
import type { CONDITION_OPERATORS } from './definition';

type Operator = (typeof CONDITION_OPERATORS)[number];

/** Text holding JSON is tested as JSON, so `$.urgency` works on a model's JSON answer. */
function parseIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Selects with JSONPath; script expressions are disabled, nothing is evaluated. */
export function selectPath(value: unknown, path: string): unknown {
  if (path === '' || path === '$') return value;
  const json = parseIfJson(value);
  if (json === null || typeof json !== 'object') return undefined;
  const selected: unknown = JSONPath({ path, json, wrap: false, eval: false });
  return selected;
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

const asNumber = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;

/** Loose equality that treats "3" and 3, "true" and true as equal; JSON compares by value. */
function equals(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return stringifyValue(a) === stringifyValue(b);
}

export function applyOperator(operator: Operator, value: unknown, operand: unknown): boolean {
  switch (operator) {
    case 'equals':
      return equals(value, operand);
    case 'not_equals':
      return !equals(value, operand);
    case 'contains':
      return Array.isArray(value)
        ? value.some((v) => equals(v, operand))
        : stringifyValue(value).includes(stringifyValue(operand));
    case 'not_contains':
      return !applyOperator('contains', value, operand);
    case 'greater_than':
      return asNumber(value) > asNumber(operand);
    case 'less_than':
      return asNumber(value) < asNumber(operand);
    case 'greater_or_equal':
      return asNumber(value) >= asNumber(operand);
    case 'less_or_equal':
      return asNumber(value) <= asNumber(operand);
    case 'is_empty':
      return isEmpty(value);
    case 'is_not_empty':
      return !isEmpty(value);
    case 'matches':
      try {
        return new RegExp(stringifyValue(operand)).test(stringifyValue(value));
      } catch {
        return false;
      }
  }
}
