import { FlowbenchError } from '../model/errors';
import { droppedFields } from '../model/dropped-fields';
import { isRecord } from '../model/is-record';
import { FlowSchema, SCHEMA_VERSION, type Flow } from '../model/flow';
import { unusedFieldWarnings } from './known-fields';
import type { ImportProblem } from './shared';

/** What marks a native flow file beside its nodes, as a message names them: the ones `record` lacks. */
export function nativeMarkersMissing(record: Record<string, unknown>): string[] {
  return [
    ...('schemaVersion' in record ? [] : ['`schemaVersion`']),
    ...(typeof record.tool === 'object' ? [] : ['`tool` object']),
  ];
}

/** True when parsed JSON looks like a Flowbench native flow file. */
export function isNativeFlow(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record.nodes) && nativeMarkersMissing(record).length === 0;
}

/**
 * Brings an older native file up to the current schema. Version 1 is the
 * first; later versions add steps here. A node's `"disabled": false` (a hand
 * edit, or a file written by a tool that writes both) means what leaving it
 * out means, the node runs, and reads as left out: the schema has `true` alone.
 */
export function upgradeNative(value: Record<string, unknown>): Record<string, unknown> {
  const version = value.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new FlowbenchError(
      'UNSUPPORTED_FORMAT',
      `schemaVersion ${JSON.stringify(version)} is not a Flowbench schema version`,
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new FlowbenchError(
      'UNSUPPORTED_FORMAT',
      `the file uses schemaVersion ${version}, newer than this Flowbench supports (${SCHEMA_VERSION}); update Flowbench`,
    );
  }
  if (!Array.isArray(value.nodes) || !value.nodes.some((node) => isRecord(node) && node.disabled === false))
    return value;
  const nodes = (value.nodes as unknown[]).map((node) => {
    if (!isRecord(node) || node.disabled !== false) return node;
    const active = { ...node };
    delete active.disabled;
    return active;
  });
  return { ...value, nodes };
}

/**
 * The fields of a native file that a flow does not have (a misspelt
 * `descripton`, a hand edit), which parsing the file would drop without a
 * word: each a warning saying where it is in the file. The flow imports
 * without them. A file the schema refuses has none here: the import
 * refuses it with its reasons. (A node's settings are free-form here: its
 * type knows them; see readFlowFile.)
 */
export function unknownNativeFields(value: Record<string, unknown>): ImportProblem[] {
  const parsed = FlowSchema.safeParse(value);
  if (!parsed.success) return [];
  const nodes = Array.isArray(value.nodes) ? (value.nodes as unknown[]) : [];
  return unusedFieldWarnings(droppedFields(value, parsed.data), 'Flowbench flow', {
    nodeOf: {
      list: 'nodes',
      idAt: (index) => {
        const id = (nodes[index] as { id?: unknown } | undefined)?.id;
        return typeof id === 'string' ? id : undefined;
      },
    },
    isKept: () => false,
  });
}

/**
 * The exact text of an exported flow: normalized (defaults filled, schema key
 * order), two-space JSON, final newline. Export → import → export is byte-identical.
 */
export function serializeNative(flow: Flow): string {
  return `${JSON.stringify(FlowSchema.parse(flow), null, 2)}\n`;
}
