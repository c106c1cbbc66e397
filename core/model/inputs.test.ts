import { describe, expect, it } from 'vitest';
import { coerceTextInput, prepareInputs } from './inputs';
import type { Parameter } from './parameter';

const number: Parameter = { name: 'n', type: 'number', required: true, description: '' };

describe('typed text inputs (the CLI --input and the editor run form alike)', () => {
  it('types text by its parameter, and leaves text that does not fit as text for validation to name', () => {
    expect(coerceTextInput(number, '2.5')).toBe(2.5);
    expect(coerceTextInput(number, 'abc')).toBe('abc');
    expect(coerceTextInput({ ...number, type: 'boolean' }, 'yes')).toBe('yes');
    expect(coerceTextInput({ ...number, type: 'object' }, '{"a":1}')).toEqual({ a: 1 });
    // "abc" is refused with its reason, never run as NaN.
    expect(() => prepareInputs([number], { n: coerceTextInput(number, 'abc') })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });
});
