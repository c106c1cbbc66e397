import { describe, expect, it } from 'vitest';
import { columns } from './columns';

describe('columns', () => {
  it('pads each column to its widest cell, two spaces apart, the last column as it is', async () => {
    expect(
      await columns([
        ['a', 'first'],
        ['longer', 'second'],
      ]),
    ).toEqual(['a       first', 'longer  second']);
  });

  it('aligns the columns a terminal shows: Chinese and emoji take two, an added accent none', async () => {
    const lines = await columns([
      ['翻译助手', 'v1', 'translates'],
      ['writer', 'v2', 'writes'],
      ['🦦 otter', 'v3', 'swims'],
      ['cafe\u0301', 'v4', 'serves'],
    ]);
    // 翻译助手 is 8 columns, "🦦 otter" 8, "café" (e + combining acute) 4, so "v…" starts at column 10 on each line.
    expect(lines).toEqual([
      '翻译助手  v1  translates',
      'writer    v2  writes',
      '🦦 otter  v3  swims',
      'cafe\u0301      v4  serves',
    ]);
  });

  it('aligns the columns it is told to on the right', async () => {
    expect(
      await columns(
        [
          ['3 nodes', 'a'],
          ['12 nodes', 'b'],
        ],
        [0],
      ),
    ).toEqual([' 3 nodes  a', '12 nodes  b']);
  });
});
