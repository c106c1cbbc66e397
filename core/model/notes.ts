import { z } from 'zod';
import { NODE_ID_PATTERN } from './ids';
import { PositionSchema } from './position';

/**
 * Sticky notes: text a person leaves on the canvas for the next reader (what a
 * part of the flow is for, what to try), as n8n's sticky notes, Langflow's and
 * Flowise's notes and Rivet's comments. They are part of the flow and its
 * file, never of a run: the engine and the MCP tools do not see them.
 */

export const NOTE_COLORS = ['yellow', 'blue', 'green', 'pink', 'purple', 'gray'] as const;
export type NoteColor = (typeof NOTE_COLORS)[number];

export const NOTE_SIZE = { width: 260, height: 160 } as const;
export const NOTE_MIN_SIZE = { width: 120, height: 60 } as const;
const MAX_NOTE_SIDE = 4000;
export const MAX_NOTES = 500;
export const MAX_NOTE_CHARS = 20_000;

export const NoteSchema = z.lazy(() =>
  z.object({
    id: z.string().regex(NODE_ID_PATTERN, 'a note id is a letter then up to 63 letters, digits, _ or -'),
    text: z.string().max(MAX_NOTE_CHARS, `a note holds at most ${MAX_NOTE_CHARS} characters`).default(''),
    position: PositionSchema,
    width: z.number().finite().min(NOTE_MIN_SIZE.width).max(MAX_NOTE_SIDE).default(NOTE_SIZE.width),
    height: z.number().finite().min(NOTE_MIN_SIZE.height).max(MAX_NOTE_SIDE).default(NOTE_SIZE.height),
    color: z.enum(NOTE_COLORS).default('yellow'),
  }),
);

/** A flow's notes: each id once, so an edit names one note. */
export const NotesSchema = z.lazy(() =>
  z
    .array(NoteSchema)
    .max(MAX_NOTES, `a flow holds at most ${MAX_NOTES} notes`)
    .superRefine((notes, ctx) => {
      const seen = new Set<string>();
      notes.forEach((note, index) => {
        if (seen.has(note.id))
          ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `two notes have the id "${note.id}"` });
        seen.add(note.id);
      });
    }),
);

export type Note = z.infer<typeof NoteSchema>;
