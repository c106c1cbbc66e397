import { FlowbenchError } from '../model/errors';
import { FlowSchema, SCHEMA_VERSION, type Flow } from '../model/flow';

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
 * first; later versions add steps here.
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
  return value;
}

/**
 * The exact text of an exported flow: normalized (defaults filled, schema key
 * order), two-space JSON, final newline. Export → import → export is byte-identical.
 */
export function serializeNative(flow: Flow): string {
  return `${JSON.stringify(FlowSchema.parse(flow), null, 2)}\n`;
}
