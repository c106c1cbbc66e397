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

/** The whole value an image's `data:` URL (an HTTP request node's image): its type and base64. */
const IMAGE_DATA_URL = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

/** A content block as the text it came from: an image as its data: URL again (what test cases read). */
export const contentText = (item: ToolResult['content'][number]): string =>
  item.type === 'text' ? item.text : `data:${item.mimeType};base64,${item.data}`;

/** A value as a content block: an image's data: URL as MCP image content (a client shows it), other text as text. */
function contentOf(value: string): ToolResult['content'][number] {
  const image = IMAGE_DATA_URL.exec(value);
  return image ? { type: 'image', mimeType: image[1] as string, data: image[2] as string } : text(value);
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
  if (output?.kind === 'return_values') return { content: output.values.map((v) => contentOf(v.text)) };
  // No output node: the outputs of the nodes nothing follows are the answer.
  const sources = new Set(flow.edges.map((e) => e.source));
  const sinks = record.steps.filter((s) => s.status === 'succeeded' && !sources.has(s.nodeId));
  return { content: sinks.map((s) => contentOf(stringifyValue(s.output))) };
}
