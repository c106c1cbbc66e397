import { describe, expect, it } from 'vitest';
import { mergeNotes } from './notes-merge';
import type { Note } from './notes';

const note = (id: string, text: string): Note => ({
  id,
  text,
  position: { x: 0, y: 0 },
  width: 260,
  height: 160,
  color: 'yellow',
});
const texts = (notes: Note[]) => notes.map((n) => `${n.id}:${n.text}`);

describe('mergeNotes', () => {
  const base = [note('a', 'A'), note('b', 'B')];

  it("keeps each side's change to a note the other side left alone", () => {
    const stored = [note('a', 'A from the other window'), note('b', 'B')];
    const ours = [note('a', 'A'), note('b', 'B from here'), note('c', 'new here')];
    expect(texts(mergeNotes(base, stored, ours))).toEqual(['a:A from the other window', 'b:B from here', 'c:new here']);
  });

  it('keeps notes the other side added, and removals from either side', () => {
    const stored = [note('a', 'A'), note('b', 'B'), note('d', 'theirs')];
    expect(texts(mergeNotes(base, stored, [note('b', 'B')]))).toEqual(['b:B', 'd:theirs']);
    expect(texts(mergeNotes(base, [note('a', 'A')], base))).toEqual(['a:A']);
  });

  it('takes the same change made on both sides once', () => {
    const both = [note('a', 'same'), note('b', 'B')];
    expect(texts(mergeNotes(base, both, both))).toEqual(['a:same', 'b:B']);
  });

  it('refuses a note changed differently on both sides, or changed on one and removed on the other', () => {
    const stored = [note('a', 'theirs'), note('b', 'B')];
    expect(() => mergeNotes(base, stored, [note('a', 'ours'), note('b', 'B')])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: { noteId: 'a' } }),
    );
    expect(() => mergeNotes(base, stored, [note('b', 'B')])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT' }),
    );
  });
});
