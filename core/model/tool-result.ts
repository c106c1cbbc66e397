import { dataUrlPieces } from './data-urls';
import type { Flow } from './flow';
import type { RunRecord } from './run';
import { stringifyValue } from './template';
import { RUN_VIEW_META_KEY, runViewData } from './run-view';

/** A link to a resource the server offers (a run record), beside the text. */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** An image, as MCP content: base64 data and its type. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

export interface ToolResult {
  [key: string]: unknown;
  content: ({ type: 'text'; text: string } | ImageContent)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the MCP server answers a call with: text, and links to resources. */
export interface McpToolResult extends Omit<ToolResult, 'content'> {
  content: ({ type: 'text'; text: string } | ImageContent | ResourceLink)[];
}

const text = (value: string) => ({ type: 'text' as const, text: value });

/**
 * A value as content blocks: an image's data: URL as MCP image content (a
 * client shows it), the text around it as text blocks, as an MCP tool that
 * answers with text, an image and text sends them; a value with no image is one text block.
 */
function contentOf(value: string): ToolResult['content'] {
  if (!value.includes('data:image/')) return [text(value)];
  const pieces = dataUrlPieces(value, (type) => type.startsWith('image/'));
  const blocks = pieces.flatMap((piece): ToolResult['content'] =>
    piece.type !== undefined
      ? [{ type: 'image', mimeType: piece.type, data: piece.data }]
      : piece.text.trim() === ''
        ? []
        : [text(piece.text.trim())],
  );
  return blocks.length > 0 ? blocks : [text(value)];
}

/** A failure a model can act on: what failed, why, and what had finished. */
export function failureText(flow: Flow, record: RunRecord): string {
  const error = record.error;
  const node = error?.nodeId ? flow.nodes.find((n) => n.id === error.nodeId) : undefined;
  const where = node ? ` at node "${node.id}"${node.label ? ` (${node.label})` : ''}` : '';
  const finished = [...new Set(record.steps.filter((s) => s.status === 'succeeded').map((s) => s.nodeId))];
  if (record.status === 'stopped') return `The flow "${flow.name}" stopped${where}: ${error?.message ?? ''}`;
  return [
    `The flow "${flow.name}" ${record.status}${where}: ${error?.code ?? 'ERROR'}: ${error?.message ?? 'no detail'}.`,
    `Finished before that: ${finished.length > 0 ? finished.join(', ') : 'nothing'}.`,
    `Run id: ${record.id}.`,
  ].join(' ');
}

/**
 * Turns a stored run into an MCP tool result, with what the built-in run view
 * shows in `_meta` for a client that shows views.
 */
export function toolResult(flow: Flow, record: RunRecord, withView = true): ToolResult {
  const result = resultOf(flow, record);
  return withView ? { ...result, _meta: { [RUN_VIEW_META_KEY]: runViewData(flow, record) } } : result;
}

function resultOf(flow: Flow, record: RunRecord): ToolResult {
  if (record.status !== 'succeeded') return { content: [text(failureText(flow, record))], isError: true };
  const output = record.output;
  if (output?.kind === 'structured') {
    return { content: [text(JSON.stringify(output.data))], structuredContent: output.data };
  }
  return { content: resultTexts(flow, record).flatMap(contentOf) };
}

/**
 * The texts a succeeded run answers with, before images are taken out of them
 * (what test cases read): its return values, or without an output node the
 * outputs of the nodes nothing follows.
 */
export function resultTexts(flow: Flow, record: RunRecord): string[] {
  const output = record.output;
  if (output?.kind === 'return_values') return output.values.map((v) => v.text);
  const sources = new Set(flow.edges.map((e) => e.source));
  const sinks = record.steps.filter((s) => s.status === 'succeeded' && !sources.has(s.nodeId));
  return sinks.map((s) => stringifyValue(s.output));
}
