import { FlowbenchError } from '../../model/errors';
import { stringifyValue } from '../../model/template';
import type { PatternTest } from '../../model/matching';

import type { CONDITION_OPERATORS } from './definition';

type Operator = (typeof CONDITION_OPERATORS)[number];

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

export function applyOperator(operator: Operator, value: unknown, operand: unknown, test?: PatternTest): boolean {
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
      return !applyOperator('contains', value, operand, test);
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
      if (!test) throw new FlowbenchError('INTERNAL_ERROR', 'a matches rule was evaluated without its matcher');
      try {
        return test(stringifyValue(operand), stringifyValue(value));
      } catch (error) {
        throw new FlowbenchError(
          'VALIDATION_ERROR',
          `cannot use the pattern ${JSON.stringify(operand)}: ${(error as Error).message}`,
        );
      }
  }
}
