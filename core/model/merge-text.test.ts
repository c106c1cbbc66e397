import { describe, expect, it } from 'vitest';
import { mergeText } from './merge-text';

const base = ['You answer support tickets.', 'Be brief.', '', '{{inputs.ticket}}'].join('\n');

describe('mergeText', () => {
  it("keeps the other window's change to other lines beside the person's", () => {
    const theirs = base.replace('{{inputs.ticket}}', 'Ticket: {{inputs.ticket}}');
    const mine = base.replace('You answer', 'You triage and answer');
    expect(mergeText(base, theirs, mine)).toEqual({
      text: ['You triage and answer support tickets.', 'Be brief.', '', 'Ticket: {{inputs.ticket}}'].join('\n'),
      conflicts: 0,
    });
  });

  it('takes changes to neighbouring lines for changes to the same place, as git does', () => {
    const theirs = base.replace('Be brief.', 'Be brief and kind.');
    const mine = base.replace('You answer', 'You triage and answer');
    expect(mergeText(base, theirs, mine)).toEqual({ text: mine, conflicts: 1 });
  });

  it('keeps lines both added at different places, and a line one removed', () => {
    const theirs = `${base}\nSign as Ana.`;
    const mine = base.replace('Be brief.\n', '');
    expect(mergeText(base, theirs, mine).text).toBe(
      ['You answer support tickets.', '', '{{inputs.ticket}}', 'Sign as Ana.'].join('\n'),
    );
  });

  it("keeps the person's lines where both changed the same ones, and counts each such place", () => {
    const theirs = base.replace('Be brief.', 'Be short.').replace('{{inputs.ticket}}', 'Ticket: {{inputs.ticket}}');
    const mine = base.replace('Be brief.', 'Be concise.').replace('{{inputs.ticket}}', '{{inputs.ticket}}\nThanks.');
    expect(mergeText(base, theirs, mine)).toEqual({
      text: ['You answer support tickets.', 'Be concise.', '', '{{inputs.ticket}}', 'Thanks.'].join('\n'),
      conflicts: 2,
    });
  });

  it('is no conflict where both made the same change', () => {
    const both = base.replace('Be brief.', 'Be brief!');
    expect(mergeText(base, both, both)).toEqual({ text: both, conflicts: 0 });
  });

  it('is the text as typed when the other side did not change it, and theirs when the person did not', () => {
    const changed = base.replace('tickets', 'emails');
    expect(mergeText(base, base, changed)).toEqual({ text: changed, conflicts: 0 });
    expect(mergeText(base, changed, base)).toEqual({ text: changed, conflicts: 0 });
  });

  it('keeps a single line changed on both sides as the person typed it (labels, one-line fields)', () => {
    expect(mergeText('Summarize', 'Summary', 'Summarize ticket')).toEqual({ text: 'Summarize ticket', conflicts: 1 });
  });
});
