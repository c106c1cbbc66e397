import { z } from 'zod';
import { droppedFields } from '../model/dropped-fields';
import { fieldWarnings, type ImportProblem, type UnusedField } from './shared';

/**
 * A foreign format's field names, as its seed gives them, to find the fields
 * a file has beyond them: every field may be absent or hold anything (the
 * importer checks values where it reads them); only the names count.
 */

// Optional: zod 4 counts a missing unknown() field as missing, not as undefined.
export const any = z.unknown().optional();
/** An object with these fields; something else where it stands is the importer's to refuse. */
export const fields = (shape: Record<string, z.ZodType>) => z.union([z.object(shape), any]);
export const list = (item: z.ZodType) => z.union([z.array(item), any]);

/** Where each field of `doc` that `known` does not name is (`steps[0].retryPolicy`). */
export function unknownFields(known: z.ZodType, doc: Record<string, unknown>): string[] {
  const parsed = known.safeParse(doc);
  // Every field is optional and any value fits: a parse that fails is a bug here, not in the file.
  return parsed.success ? droppedFields(doc, parsed.data) : [];
}

/**
 * Warnings for the fields of a file its format does not define (`paths`):
 * kept with the flow for its export where the importer keeps the file's own
 * text, left out elsewhere, and read by nothing in Flowbench either way, so
 * each is said where it is instead of ignored without a word. A field of an
 * entry of `nodeOf.list` (`steps[2]`) is said on that entry's node.
 */
export function unusedFieldWarnings(
  paths: readonly string[],
  format: string,
  options: {
    /** The file's list of steps or nodes, and the node made of its entry at an index. */
    nodeOf?: { list: string; idAt: (index: number) => string | undefined };
    /** More about a field, by its name and where it is (` (seed 004 retired it: …)`). */
    hint?: (name: string, source: string) => string;
    /** Whether the flow keeps the field for export; one it does not is left out. */
    isKept?: (source: string) => boolean;
  } = {},
): ImportProblem[] {
  const { nodeOf, hint = () => '', isKept = () => true } = options;
  const entry = nodeOf ? new RegExp(`^${nodeOf.list}\\[(\\d+)\\]`) : undefined;
  const fields = paths.map((source): UnusedField => {
    const index = entry?.exec(source)?.[1];
    const nodeId = index === undefined ? undefined : nodeOf?.idAt(Number(index));
    const name = source.slice(source.lastIndexOf('.') + 1).replace(/^.*\]/, '');
    const fate = isKept(source) ? 'Flowbench keeps it for export but does not apply it' : 'left out';
    return {
      source,
      message: `not a field of a ${format}${hint(name, source)}; ${fate}`,
      ...(nodeId !== undefined ? { nodeId } : {}),
    };
  });
  const fate = (rest: readonly string[]) => (rest.some(isKept) ? 'are not applied' : 'were left out');
  return fieldWarnings(
    fields,
    (count) => `${count} more fields a ${format} does not have ${fate(paths.slice(-count))}`,
  );
}
