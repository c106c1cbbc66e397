import { FlowbenchError } from '../model/errors';
import { isRecord } from '../model/is-record';
import { NODE_ID_PATTERN, TOOL_NAME_PATTERN } from '../model/ids';

/** Something an importer could not carry over cleanly; stored on the draft until resolved. */
export interface ImportProblem {
  code: 'IMPORT_PROBLEM';
  /** Errors keep the flow from publishing until fixed or dismissed; warnings only say what changed. Default error. */
  severity?: 'warning';
  message: string;
  nodeId?: string;
  /** Where in the source file, e.g. `steps[2].transitions.onSuccess.next`. */
  source?: string;
}

export interface ImportedFlow {
  format: ImportFormat;
  /** A native flow, not yet validated (validation and the store decide what it may keep). */
  flow: Record<string, unknown>;
  problems: ImportProblem[];
  /** The source said the flow is published (seed 004 `status: PUBLISHED`). */
  isPublished?: boolean;
  /**
   * Where a node setting the importer carried over from the file stands in
   * it (`config.memoryReads[0].order` of a step's node → `steps[2].memoryReads[0].order`),
   * for a warning about it; undefined where the importer made the setting.
   */
  settingSource?: (nodeId: string, field: string) => string | undefined;
}

export type ImportFormat = 'native' | 'flowyprompt' | 'flow-definition' | 'workflow' | 'tool-flow' | 'n8n';

/** Such fields are listed one by one up to this; one more problem counts the rest. */
const MAX_FIELDS_LISTED = 20;

/** A field of a file that an import leaves out or does not apply: where it is, and what becomes of it. */
export interface UnusedField {
  source: string;
  nodeId?: string;
  message: string;
}

/**
 * Warnings for the fields of a file an import leaves out or does not apply,
 * one a field up to MAX_FIELDS_LISTED, then one that counts the rest (`more`).
 */
export function fieldWarnings(fields: readonly UnusedField[], more: (count: number) => string): ImportProblem[] {
  const problems: ImportProblem[] = fields.slice(0, MAX_FIELDS_LISTED).map(({ source, nodeId, message }) => ({
    code: 'IMPORT_PROBLEM',
    severity: 'warning',
    source,
    message,
    ...(nodeId !== undefined ? { nodeId } : {}),
  }));
  if (fields.length > MAX_FIELDS_LISTED) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      message: more(fields.length - MAX_FIELDS_LISTED),
    });
  }
  return problems;
}

export { isRecord } from '../model/is-record';

/**
 * The flow with `problems` recorded in its metadata (`importProblems`, which
 * validation reads back as IMPORT_PROBLEM), after those an earlier import
 * left there; the flow itself when there are none.
 */
export function withImportProblems(
  flow: Record<string, unknown>,
  problems: readonly ImportProblem[],
): Record<string, unknown> {
  if (problems.length === 0) return flow;
  const metadata = isRecord(flow.metadata) ? flow.metadata : {};
  const earlier = Array.isArray(metadata.importProblems) ? (metadata.importProblems as unknown[]) : [];
  return { ...flow, metadata: { ...metadata, importProblems: [...earlier, ...problems] } };
}

export const asString = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A valid, unique node id made from any source id or name. */
export function nodeIdFactory(): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    let base = wanted
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 56);
    if (!NODE_ID_PATTERN.test(base)) base = `n_${base}`.slice(0, 56);
    if (!NODE_ID_PATTERN.test(base)) base = 'node';
    return freeName(used, base);
  };
}

/** `wanted`, or `wanted_2`, `wanted_3`… (`separator` between), the first `taken` lacks; taken from then on. */
export function freeName(taken: Set<string>, wanted: string, separator = '_'): string {
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}${separator}${i}`;
  taken.add(name);
  return name;
}

/** A tool name derived from a title: letters, digits, _ . - only. */
/**
 * `toolNameFrom`, plus a warning naming the rewrite when the file's name was
 * not a valid tool name as it stood (a name is never changed silently).
 */
export function importedToolName(name: string, source: string, problems: ImportProblem[]): string {
  const valid = toolNameFrom(name);
  if (valid !== name) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source,
      message: `"${name}" is not a valid MCP tool name (letters, digits, _ . - up to 128); imported as "${valid}"`,
    });
  }
  return valid;
}

export function toolNameFrom(title: string): string {
  const name = title
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 128);
  return TOOL_NAME_PATTERN.test(name) ? name : 'imported_flow';
}

/** Lays nodes out left to right in the order given, when the source has no positions. */
export const gridPosition = (index: number) => ({ x: index * 260, y: 100 });

export function formatError(message: string, data?: Record<string, unknown>): FlowbenchError {
  return new FlowbenchError('VALIDATION_ERROR', message, data);
}

/** Drops undefined fields so exports carry only what the source had or Flowbench set. */
export function clean<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
