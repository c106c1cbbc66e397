import { NodeResizer, NodeToolbar, type Node, type NodeProps, type OnResizeEnd } from '@xyflow/react';
import { Trash2 } from 'lucide-react';
import { memo, Suspense, useState, type KeyboardEvent } from 'react';
import { NOTE_COLORS, NOTE_MIN_SIZE, type Note } from '../../../core/model/notes';
import { useAppStore } from '../store/app-store';
import { lazyOr } from '../lazy-or';

// Its own chunk, loaded with the first note drawn: a flow without notes never loads the Markdown
// parser. The text as written stands in when it cannot load.
const NoteMarkdown = lazyOr(
  () => import('./note-markdown').then((m) => m.default),
  ({ text }: { text: string }) => (
    <span title="The Markdown view could not load (is Flowbench still running?); the text is shown as written">
      {text}
    </span>
  ),
);

export interface NoteData extends Record<string, unknown> {
  note: Note;
}

export type NoteRfNode = Node<NoteData, 'note'>;

/** The note's text: shown as Markdown (as written until the parser is loaded); a double click, or Enter when selected, edits it. */
function NoteText({ note, isEditable }: { note: Note; isEditable: boolean }) {
  // What is being typed lives here: the canvas hears of the flow's change a render later, and a
  // textarea given that older text would drop the keys typed in between.
  const [draft, setDraft] = useState<string | undefined>();
  if (draft !== undefined && isEditable) {
    const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
      // Escape ends the writing, not the canvas's selection.
      if (event.key === 'Escape') {
        event.stopPropagation();
        event.currentTarget.blur();
      }
    };
    return (
      <textarea
        className="note-text nodrag nowheel"
        aria-label="Note text"
        autoFocus
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          useAppStore.getState().updateNote(note.id, { text: e.target.value }, `note.${note.id}.text`);
        }}
        onBlur={() => setDraft(undefined)}
        onKeyDown={onKeyDown}
        onFocus={(e) => e.currentTarget.setSelectionRange(draft.length, draft.length)}
      />
    );
  }
  const edit = () => setDraft(note.text);
  return (
    <div
      className={`note-body${note.text ? '' : ' is-empty'}`}
      data-testid="note-body"
      onDoubleClick={isEditable ? edit : undefined}
      onKeyDown={isEditable ? (e) => e.key === 'Enter' && (e.preventDefault(), edit()) : undefined}
      tabIndex={isEditable ? 0 : undefined}
    >
      {note.text ? (
        <Suspense fallback={note.text}>
          <NoteMarkdown text={note.text} />
        </Suspense>
      ) : isEditable ? (
        'Double-click to write a note (Markdown)'
      ) : (
        ''
      )}
    </div>
  );
}

/** Over every card, a selected one (lifted by 1,000) too. */
const TOOLS_ABOVE_CARDS = { zIndex: 1001 };

/** The selected note's colours and its delete button, above it. */
function NoteTools({ note }: { note: Note }) {
  return (
    // React Flow stacks a toolbar just over its node, which for a note is under the canvas's pane.
    <NodeToolbar className="note-tools" aria-label="Note" style={TOOLS_ABOVE_CARDS}>
      {NOTE_COLORS.map((color) => (
        <button
          key={color}
          className={`note-swatch note-${color}`}
          title={color}
          aria-label={`Colour ${color}`}
          aria-pressed={note.color === color}
          onClick={() => useAppStore.getState().updateNote(note.id, { color })}
        />
      ))}
      <button
        className="note-delete"
        title="Delete the note"
        aria-label="Delete the note"
        onClick={() => useAppStore.getState().removeSelection()}
      >
        <Trash2 size={14} />
      </button>
    </NodeToolbar>
  );
}

/**
 * A sticky note on the canvas: behind the nodes, no ports, resizable when
 * selected. Its edits are the flow's (undoable, saved like any other).
 */
function NoteView({ data, selected }: NodeProps<NoteRfNode>) {
  const { note } = data;
  const isEditable = useAppStore((s) => s.runSnapshot === undefined);
  const onResizeEnd: OnResizeEnd = (_, box) =>
    useAppStore.getState().updateNote(note.id, {
      position: { x: box.x, y: box.y },
      width: Math.round(box.width),
      height: Math.round(box.height),
    });
  return (
    <>
      {isEditable && (
        <NodeResizer
          isVisible={selected}
          minWidth={NOTE_MIN_SIZE.width}
          minHeight={NOTE_MIN_SIZE.height}
          onResizeEnd={onResizeEnd}
        />
      )}
      {isEditable && <NoteTools note={note} />}
      <NoteText note={note} isEditable={isEditable} />
    </>
  );
}

export const MemoNoteView = memo(NoteView);
