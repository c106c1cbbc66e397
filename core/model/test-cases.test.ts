import { describe, expect, it } from 'vitest';
import { nextTestCase, type TestCase } from './test-cases';

const existing = (...ids: string[]): TestCase[] => ids.map((id) => ({ id, name: id, inputs: {}, expectations: [] }));

describe('nextTestCase', () => {
  it('takes the next free number and the name given, else Case n, with no expectation yet', () => {
    expect(nextTestCase([], { text: 'hi' })).toEqual({
      id: 'case_1',
      name: 'Case 1',
      inputs: { text: 'hi' },
      expectations: [],
    });
    // case_2 is taken (a case was removed before it): the next free one.
    expect(nextTestCase(existing('case_2'), {}, '  From chat  ')).toMatchObject({ id: 'case_3', name: 'From chat' });
    expect(nextTestCase(existing('a', 'b'), {}, ' ')).toMatchObject({ id: 'case_3', name: 'Case 3' });
  });
});
