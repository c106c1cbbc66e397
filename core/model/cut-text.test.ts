import { describe, expect, it } from 'vitest';
import { cutText } from './cut-text';

describe('cutText', () => {
  it('cuts to the length asked, never between the halves of an emoji', () => {
    expect(cutText('otters', 3)).toBe('ott');
    expect(cutText('otters', 10)).toBe('otters');
    // "a👋" is 3 units: a cut at 2 would keep half of the hand.
    expect(cutText('a👋b', 2)).toBe('a');
    expect(cutText('a👋b', 3)).toBe('a👋');
    expect(cutText('👋👋', 1)).toBe('');
  });
});
