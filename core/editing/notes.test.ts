import { describe, expect, it } from 'vitest';
import { boxesApart } from '../../tests/helpers/boxes';
import { smallFlow } from '../../tests/helpers/flows';
import { applyChangeSet, ChangeSetSchema, invertChangeSet } from '../model/change-set';
import { FlowSchema, type Flow } from '../model/flow';
import { NOTE_SIZE } from '../model/notes';
import {
  addNoteChange,
  moveNotesChange,
  notePlace,
  notesAfterLayout,
  removeNotesChange,
  updateNoteChange,
} from './notes';
import { copyClip, pasteChanges, PASTE_OFFSET } from './paste';

const flow = FlowSchema.parse(smallFlow());
const apply = (on: Flow, input: unknown) => applyChangeSet(on, ChangeSetSchema.parse(input));

describe('sticky notes as edits of the flow', () => {
  it('adds a note with a new id, changes, moves and removes it; each edit undoes', () => {
    const { changes, noteId } = addNoteChange(flow, { x: 40, y: 60 });
    expect(noteId).toMatch(/^note_[0-9a-z]{8}$/);
    const one = apply(flow, changes);
    expect(one.notes).toEqual([{ id: noteId, text: '', position: { x: 40, y: 60 }, ...NOTE_SIZE, color: 'yellow' }]);
    // Another added here, or in another window at the same moment, has an id of its own.
    expect(addNoteChange(one, { x: 0, y: 0 }).noteId).not.toBe(noteId);
    expect(addNoteChange(flow, { x: 40, y: 60 }).noteId).not.toBe(noteId);

    const written = apply(one, updateNoteChange(one, noteId, { text: 'Why this prompt', color: 'blue' }));
    expect(written.notes[0]).toMatchObject({ text: 'Why this prompt', color: 'blue' });
    const moved = apply(written, moveNotesChange(written, [{ id: noteId, position: { x: 100, y: 0 } }]));
    expect(moved.notes[0]!.position).toEqual({ x: 100, y: 0 });
    expect(apply(moved, removeNotesChange(moved, [noteId])).notes).toEqual([]);

    // Undo of any of them gives back the list as it was; the nodes are untouched.
    const edit = ChangeSetSchema.parse(removeNotesChange(moved, [noteId]));
    const undone = applyChangeSet(applyChangeSet(moved, edit), invertChangeSet(moved, edit));
    expect(undone.notes).toEqual(moved.notes);
    expect(undone.nodes).toEqual(flow.nodes);
  });

  it('makes no edit when nothing changes or the note is gone (deleted in another window)', () => {
    const { changes, noteId } = addNoteChange(flow, { x: 0, y: 0 });
    const one = apply(flow, changes);
    expect(updateNoteChange(one, noteId, { text: '' })).toBeUndefined();
    expect(updateNoteChange(one, noteId, { text: 'x' })).toBeDefined();
    expect(updateNoteChange(one, 'gone', { text: 'x' })).toBeUndefined();
    expect(moveNotesChange(one, [{ id: noteId, position: { x: 0, y: 0 } }])).toBeUndefined();
    expect(removeNotesChange(one, ['gone'])).toBeUndefined();
  });

  it('places a new note in view, clear of the cards and the other notes', () => {
    const view = { x: 0, y: 0, width: 1000, height: 600 };
    const crowded = apply(flow, {
      updateNodes: [{ id: 'greet', position: { x: 380, y: 220 } }],
      flow: { notes: [{ id: 'n', position: { x: 380, y: 380 }, width: 260, height: 160 }] },
    });
    const at = notePlace(crowded, view);
    const boxes = [
      ...crowded.nodes.map((n) => ({ ...n.position, width: 220, height: 80 })),
      ...crowded.notes.map((n) => ({ ...n.position, width: n.width, height: n.height })),
    ];
    for (const box of boxes) expect(boxesApart({ ...at, ...NOTE_SIZE }, box)).toBe(true);
  });

  it('copies and pastes notes with new ids, beside the originals', () => {
    const noted = apply(flow, { flow: { notes: [{ id: 'note_1', text: 'a', position: { x: 0, y: 0 } }] } });
    const clip = copyClip(noted, ['greet'], ['note_1']);
    const { changes, nodeIds, noteIds } = pasteChanges(noted, clip);
    const pasted = apply(noted, changes);
    expect(noteIds).toEqual([expect.stringMatching(/^note_[0-9a-z]{8}$/)]);
    expect(nodeIds).toHaveLength(1);
    expect(pasted.notes[1]).toMatchObject({
      id: noteIds[0],
      text: 'a',
      position: { x: PASTE_OFFSET, y: PASTE_OFFSET },
    });
    // A clip copied before notes existed pastes its nodes alone.
    const old = pasteChanges(noted, { nodes: clip.nodes, edges: [] });
    expect(old.noteIds).toEqual([]);
    expect(apply(noted, old.changes).notes).toHaveLength(1);
  });

  it('refuses notes that are not valid, saying which and why', () => {
    const parse = (notes: unknown) => ChangeSetSchema.safeParse({ flow: { notes } });
    const twice = parse([
      { id: 'a', position: { x: 0, y: 0 } },
      { id: 'a', position: { x: 1, y: 1 } },
    ]);
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]).toMatchObject({
      path: ['flow', 'notes', 1, 'id'],
      message: 'two notes have the id "a"',
    });
    expect(parse([{ id: 'a', position: { x: 0, y: 0 }, width: 10 }]).error?.issues[0]?.path).toEqual([
      'flow',
      'notes',
      0,
      'width',
    ]);
    expect(parse([{ id: 'a', position: { x: 0, y: 0 }, color: 'orange' }]).success).toBe(false);
    expect(parse([{ id: 'a', position: { x: 0, y: 0 }, text: 'x'.repeat(20_001) }]).error?.issues[0]?.message).toBe(
      'a note holds at most 20000 characters',
    );
  });
});

describe('notes after an auto-layout', () => {
  // Two cards side by side with a note around them (20 px margins), and a note around nothing.
  const laidOut = apply(flow, {
    updateNodes: [
      { id: 'input', position: { x: 0, y: 0 } },
      { id: 'greet', position: { x: 300, y: 0 } },
      { id: 'result', position: { x: 2000, y: 2000 } },
    ],
    flow: {
      notes: [
        { id: 'around', position: { x: -20, y: -40 }, width: 560, height: 150 },
        { id: 'alone', position: { x: 900, y: 900 } },
      ],
    },
  });

  it('moves a note with the cards inside it, keeping its margins, and grows it when they spread out', () => {
    const notes = notesAfterLayout(laidOut, [
      { id: 'input', position: { x: 100, y: 500 } },
      { id: 'greet', position: { x: 100, y: 700 } },
    ]);
    expect(notes?.[0]).toMatchObject({
      id: 'around',
      position: { x: 80, y: 460 },
      // The cards now span 220 × 290 where they spanned 520 × 90: the note keeps 20 px and 40 px margins around them.
      width: 260,
      height: 350,
    });
    expect(notes?.[1]).toBe(laidOut.notes[1]);
  });

  it('changes nothing when the cards inside notes did not move', () => {
    expect(notesAfterLayout(laidOut, [{ id: 'result', position: { x: 0, y: 900 } }])).toBeUndefined();
  });
});
