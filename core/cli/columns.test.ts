import stringWidth from 'string-width';
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

  it('aligns plain rows (printable ASCII, where it skips loading string-width) as string-width would', async () => {
    const rows = [
      ['example-triage-ticket', 'triage_ticket', '6 nodes', 'on', 'Triage a support ticket'],
      ['a', 'b~{|}', '12 nodes', 'off', 'x'],
      [' spaced ', '!"#$%&()*+,-./:;<=>?@[\\]^_`', '3 nodes', '', 'last'],
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => stringWidth(row[i]!))));
    const expected = rows.map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - stringWidth(cell))))
        .join('  ')
        .trimEnd(),
    );
    expect(await columns(rows)).toEqual(expected);
    // The last column is not measured: kept as it is, whatever it holds.
    expect(
      await columns([
        ['a', '10→5 tokens'],
        ['abc', 'x'],
      ]),
    ).toEqual(['a    10→5 tokens', 'abc  x']);
    // A control character is not plain: string-width counts the tab as no column.
    expect(
      await columns([
        ['a\tb', 'x'],
        ['abc', 'y'],
      ]),
    ).toEqual(['a\tb   x', 'abc  y']);
  });
});
