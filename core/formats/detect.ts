import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { FlowbenchError } from '../model/errors';
import { isNestedDeeperThan, MAX_FLOW_FILE_BYTES, MAX_NESTING_DEPTH, megabytes } from '../model/limits';
import { importFlowDefinition, isFlowDefinition } from './flow-definition';
import { importFlowyPrompt, isFlowyPrompt, MAX_FLOWYPROMPT_BYTES } from './flowyprompt';
import { importN8nWorkflow, isN8nWorkflow } from './n8n';
import { isNativeFlow, nativeMarkersMissing, unknownNativeFields, upgradeNative } from './native';
import { parseJsonText } from './parse-json';
import { isRecord, type ImportedFlow } from './shared';
import { importToolFlow, isToolFlow } from './tool-flow';
import { importWorkflow, isWorkflow } from './workflow';

export type { ImportFormat, ImportedFlow, ImportProblem } from './shared';

/** YAML aliases beyond this are refused: a "billion laughs" file would otherwise expand without end. */
const MAX_YAML_ALIASES = 100;

/**
 * The size a YAML node has once its aliases are expanded, counted on the
 * parsed document without expanding anything: each anchored node is measured
 * once, so a file of nested aliases costs its own size to measure.
 */
function expandedSize(node: unknown, doc: Document, memo: Map<unknown, number>): number {
  const known = memo.get(node);
  if (known !== undefined) return known;
  let size = 1;
  if (isAlias(node)) size = expandedSize(node.resolve(doc), doc, memo);
  else if (isScalar(node)) size = String(node.value).length;
  else if (isMap(node) || isSeq(node)) {
    for (const item of node.items as unknown[]) {
      size += isPair(item)
        ? expandedSize(item.key, doc, memo) + expandedSize(item.value, doc, memo)
        : expandedSize(item, doc, memo);
      if (size > MAX_FLOW_FILE_BYTES) break;
    }
  }
  memo.set(node, size);
  return size;
}

/** JSON when it looks like JSON, YAML otherwise (seed 004 definitions come in both). */
function parseText(text: string, source: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed === '') return parseJsonText(text, source);
  const fail = (reason: string) =>
    new FlowbenchError('INVALID_YAML', `${source} is neither JSON nor valid YAML: ${reason}`, { source });
  const doc = parseDocument(text, { prettyErrors: true });
  const error = doc.errors[0];
  if (error) throw fail(error.message.split('\n')[0] ?? '');
  // Few aliases can still multiply a large string: the expanded document may be no larger than a file.
  const size = expandedSize(doc.contents, doc, new Map());
  if (size > MAX_FLOW_FILE_BYTES) {
    throw new FlowbenchError(
      'INVALID_YAML',
      `${source} expands to more than ${megabytes(MAX_FLOW_FILE_BYTES)} through its aliases; the limit is that of a file`,
      { source, limit: MAX_FLOW_FILE_BYTES },
    );
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (error) {
    throw fail((error as Error).message.split('\n')[0] ?? '');
  }
}

/** Recognizes a file by its content (not its name) and converts it to a native flow. */
export function detectImport(text: string, source: string): ImportedFlow {
  const value = parseText(text, source);
  // Before any importer or schema recurses into it.
  if (isNestedDeeperThan(value, MAX_NESTING_DEPTH)) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `${source} nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels, the limit for a flow file`,
      { source, limit: MAX_NESTING_DEPTH },
    );
  }
  if (isNativeFlow(value)) {
    const flow = upgradeNative(value);
    const nodes = Array.isArray(flow.nodes) ? (flow.nodes as unknown[]) : [];
    return {
      format: 'native',
      flow,
      problems: unknownNativeFields(flow),
      // A node's setting is where the file has that node.
      settingSource: (nodeId, field) => {
        const index = nodes.findIndex((node) => isRecord(node) && node.id === nodeId);
        return index === -1 ? undefined : `nodes[${index}].${field}`;
      },
    };
  }
  if (isFlowyPrompt(value)) {
    const size = utf8Length(text);
    if (size > MAX_FLOWYPROMPT_BYTES) {
      throw new FlowbenchError(
        'FILE_TOO_LARGE',
        `${source} is ${(size / 1024 / 1024).toFixed(1)} MB; a FlowyPrompt flow file is limited to 1 MB (seed 001)`,
        { size, limit: MAX_FLOWYPROMPT_BYTES },
      );
    }
    return importFlowyPrompt(value);
  }
  if (isN8nWorkflow(value)) return importN8nWorkflow(value);
  if (isFlowDefinition(value)) return importFlowDefinition(value);
  if (isWorkflow(value)) return importWorkflow(value);
  if (isToolFlow(value)) return importToolFlow(value);
  const missing = nativeFieldsMissing(value);
  throw new FlowbenchError(
    'UNSUPPORTED_FORMAT',
    missing
      ? `${source} has nodes like a Flowbench flow but no ${missing.join(' and no ')}, which a Flowbench flow file has (\`flowbench export\` writes one to compare with)`
      : `${source} is not a flow Flowbench can import: expected a Flowbench flow, a FlowyPrompt flow, a flow definition (JSON or YAML), a workflow with steps, a tool flow with return values, or an n8n workflow`,
    { source, ...(missing ? { missing } : {}) },
  );
}

/**
 * What a file whose nodes are Flowbench's (an id, a type and a config each;
 * other tools' nodes have `parameters` or `data`) lacks of a native flow's
 * markers: such a file was most likely written by hand, or by a model.
 */
function nativeFieldsMissing(record: unknown): string[] | undefined {
  if (!isRecord(record) || !Array.isArray(record.nodes) || record.nodes.length === 0) return;
  const flowbenchNode = (node: unknown) =>
    isRecord(node) && typeof node.id === 'string' && typeof node.type === 'string' && isRecord(node.config);
  if (!record.nodes.every(flowbenchNode)) return;
  const missing = nativeMarkersMissing(record);
  return missing.length > 0 ? missing : undefined;
}

/** A text's size in UTF-8 bytes, counted here: the formats run in the renderer too (no Buffer). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
