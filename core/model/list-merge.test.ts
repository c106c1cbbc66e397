import { describe, expect, it } from 'vitest';
import { mergeList } from './list-merge';

const value = (id: string, text: string) => ({ id, text });
const base = [value('r1', 'one'), value('r2', 'two'), value('r3', 'three')];

describe('mergeList, items with an identity field', () => {
  it('keeps both windows’ edits of different items, neighbours too', () => {
    const stored = [value('r1', 'ONE'), value('r2', 'two'), value('r3', 'three')];
    const ours = [value('r1', 'one'), value('r2', 'TWO'), value('r3', 'three')];
    expect(mergeList(base, stored, ours)).toEqual([value('r1', 'ONE'), value('r2', 'TWO'), value('r3', 'three')]);
  });

  it('keeps items added on both sides, the stored ones first where both added at one place', () => {
    const stored = [...base, value('r4', 'four')];
    const ours = [value('r0', 'zero'), ...base, value('r5', 'five')];
    expect(mergeList(base, stored, ours)?.map((item) => (item as { id: string }).id)).toEqual([
      'r0',
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
    ]);
  });

  it('takes a removal on one side and an edit of another item on the other', () => {
    const stored = [value('r1', 'one'), value('r3', 'three')];
    const ours = [value('r1', 'one'), value('r2', 'two'), value('r3', 'THREE')];
    expect(mergeList(base, stored, ours)).toEqual([value('r1', 'one'), value('r3', 'THREE')]);
  });

  it('merges one item both changed field by field, and refuses a field both changed differently', () => {
    const field = (description: string, type: string) => ({ name: 'city', value: '{{x}}', type, description });
    const started = [field('', 'any')];
    expect(mergeList(started, [field('Where', 'any')], [field('', 'string')])).toEqual([field('Where', 'string')]);
    expect(mergeList(started, [field('Where', 'any')], [field('Which city', 'any')])).toBeUndefined();
  });

  it('merges a text of several lines in one item line by line, and refuses one both changed in the same line', () => {
    const text = ['Summary:', '{{nodes.ask.output}}', 'Sources: {{nodes.search.output}}'].join('\n');
    const started = [value('r1', text)];
    const theirs = [value('r1', text.replace('Summary:', 'Summary (short):'))];
    expect(mergeList(started, theirs, [value('r1', `${text}\nThanks`)])).toEqual([
      value('r1', `${text.replace('Summary:', 'Summary (short):')}\nThanks`),
    ]);
    expect(mergeList(started, theirs, [value('r1', text.replace('Summary:', 'In brief:'))])).toBeUndefined();
  });

  it('refuses an item one side removed and the other changed, and an item both added differently', () => {
    expect(
      mergeList(base, [value('r1', 'one'), value('r3', 'three')], [...base.slice(0, 1), value('r2', 'TWO'), base[2]]),
    ).toBeUndefined();
    expect(mergeList(base, [...base, value('r4', 'mine')], [...base, value('r4', 'yours')])).toBeUndefined();
  });

  it('follows the order one side gave the items while the other edits one, and refuses two different orders', () => {
    const reversed = [...base].reverse();
    const edited = [value('r1', 'ONE'), value('r2', 'two'), value('r3', 'three')];
    expect(mergeList(base, edited, reversed)).toEqual([value('r3', 'three'), value('r2', 'two'), value('r1', 'ONE')]);
    expect(mergeList(base, [base[1], base[0], base[2]], reversed)).toBeUndefined();
  });

  it('keeps a renamed item in its place', () => {
    const arg = (name: string, text: string) => ({ name, value: text });
    const started = [arg('a', '1'), arg('b', '2'), arg('c', '3')];
    const stored = [arg('a', '1'), arg('b', '2'), arg('c', '33')];
    const ours = [arg('a2', '1'), arg('b', '2'), arg('c', '3')];
    expect(mergeList(started, stored, ours)).toEqual([arg('a2', '1'), arg('b', '2'), arg('c', '33')]);
  });
});

describe('mergeList, items known by their whole value', () => {
  const tool = (name: string) => ({ server: 'files', tool: name });
  const tools = [tool('read'), tool('list')];

  it('keeps a tool ticked in each window, and one unticked in one while the other ticks another', () => {
    expect(mergeList(tools, [...tools, tool('write')], [...tools, tool('move')])).toEqual([
      ...tools,
      tool('write'),
      tool('move'),
    ]);
    expect(mergeList(tools, [...tools, tool('write')], [tool('list')])).toEqual([tool('list'), tool('write')]);
  });

  it('keeps edits of rules apart from each other, and refuses edits of neighbouring rules as git does lines', () => {
    const rule = (operand: string) => ({ value: '{{x}}', path: '$', operator: 'equals', operand });
    const rules = [rule('a'), rule('b'), rule('c')];
    expect(mergeList(rules, [rule('A'), rule('b'), rule('c')], [rule('a'), rule('b'), rule('C')])).toEqual([
      rule('A'),
      rule('b'),
      rule('C'),
    ]);
    expect(mergeList(rules, [rule('A'), rule('b'), rule('c')], [rule('a'), rule('B'), rule('c')])).toBeUndefined();
  });

  it('keeps equal items apart: one of two equal rules removed leaves the other', () => {
    const rule = { value: '{{x}}', path: '$', operator: 'is_empty' };
    const other = { ...rule, operator: 'is_not_empty' };
    expect(mergeList([rule, rule, other], [rule, rule, other, other], [rule, other])).toEqual([rule, other, other]);
  });

  it('matches items whatever the order of their keys', () => {
    expect(mergeList(tools, [{ tool: 'read', server: 'files' }, tool('list'), tool('write')], [tool('list')])).toEqual([
      tool('list'),
      tool('write'),
    ]);
  });
});
