import { describe, expect, it } from 'vitest';
import { readTextOrJson, showTextOrJson } from './text-or-json';

describe('a text-or-JSON field', () => {
  it('reads JSON as its value and anything else as the text typed', () => {
    expect(readTextOrJson('billing')).toBe('billing');
    expect(readTextOrJson('\\d+ items?')).toBe('\\d+ items?');
    expect(readTextOrJson('(yes|no)')).toBe('(yes|no)');
    expect(readTextOrJson('42')).toBe(42);
    expect(readTextOrJson('true')).toBe(true);
    expect(readTextOrJson('["a", "b"]')).toEqual(['a', 'b']);
    expect(readTextOrJson('"42"')).toBe('42');
    expect(readTextOrJson('{"a": ')).toBe('{"a": ');
    expect(readTextOrJson('')).toBe('');
  });

  it('shows each value so that reading it back gives the same value', () => {
    for (const value of [
      'billing',
      '\\d+',
      '42',
      'true',
      '',
      ' padded ',
      '"quoted"',
      42,
      false,
      null,
      ['a'],
      { a: 1 },
    ]) {
      expect(readTextOrJson(showTextOrJson(value))).toEqual(value);
    }
    expect(showTextOrJson('billing')).toBe('billing');
    expect(showTextOrJson('42')).toBe('"42"');
    expect(showTextOrJson(undefined)).toBe('');
  });
});
