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

  it('keeps a note moved, sized or coloured on one side and written in on the other; a move on both sides is ours', () => {
    const moved = { ...note('a', 'A'), position: { x: 400, y: 80 }, color: 'blue' as const };
    const written = { ...note('a', 'A, written here'), width: 320 };
    expect(mergeNotes(base, [moved, note('b', 'B')], [written, note('b', 'B')])[0]).toEqual({
      ...moved,
      text: 'A, written here',
      width: 320,
    });
    // The other way round: stored has the text, this edit the move.
    expect(mergeNotes(base, [written, note('b', 'B')], [moved, note('b', 'B')])[0]).toEqual({
      ...written,
      position: { x: 400, y: 80 },
      color: 'blue',
    });
    const theirsMoved = { ...note('a', 'A'), position: { x: 10, y: 10 } };
    const oursMoved = { ...note('a', 'A'), position: { x: 20, y: 20 }, height: 200 };
    expect(mergeNotes(base, [theirsMoved, note('b', 'B')], [oursMoved, note('b', 'B')])[0]).toEqual(oursMoved);
  });

  it('refuses a note changed differently on both sides, or changed on one and removed on the other', () => {
    const stored = [note('a', 'theirs'), note('b', 'B')];
    expect(() => mergeNotes(base, stored, [note('a', 'ours'), note('b', 'B')])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: { noteId: 'a' } }),
    );
    expect(() => mergeNotes(base, stored, [note('b', 'B')])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT' }),
    );
    // Written differently on both sides, whatever else each changed.
    const movedAndWritten = { ...note('a', 'ours'), position: { x: 50, y: 50 } };
    expect(() => mergeNotes(base, stored, [movedAndWritten, note('b', 'B')])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: { noteId: 'a' } }),
    );
    // Moved on one side and removed on the other: refused, as a move of a node that is gone is.
    const moved = [{ ...note('a', 'A'), position: { x: 9, y: 9 } }, note('b', 'B')];
    expect(() => mergeNotes(base, moved, [note('b', 'B')])).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
  });

  it('merges a text both sides wrote in different lines, line by line; the same line is refused', () => {
    const text = ['Todo', '- prompts', '- tests'].join('\n');
    const start = [note('a', text)];
    const theirs = [{ ...note('a', text.replace('Todo', 'Todo (Ana)')), position: { x: 30, y: 30 } }];
    const ours = [note('a', `${text}\n- docs`)];
    expect(mergeNotes(start, theirs, ours)).toEqual([
      { ...note('a', ['Todo (Ana)', '- prompts', '- tests', '- docs'].join('\n')), position: { x: 30, y: 30 } },
    ]);
    expect(() => mergeNotes(start, theirs, [note('a', text.replace('Todo', 'Todo (Bo)'))])).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: { noteId: 'a' } }),
    );
  });
});
