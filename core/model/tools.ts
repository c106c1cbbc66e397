import { dataUrl, PICTURE_TYPES } from './data-urls';
import { z } from 'zod';
import type { AbortSignalLike } from './abort';
import type { SecretStore } from './secrets';

/**
 * External MCP servers Flowbench connects to as a client, and the port through
 * which nodes call their tools. The settings live with the provider settings;
 * secrets (env values, header values) are kept the same way and never sent to
 * the editor in full.
 */

const SERVER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const SERVER_NAME_RULE = 'a server name is 1–64 letters, digits, _ . or -';

const serverBase = {
  name: z
    .string()
    .regex(SERVER_NAME_PATTERN, SERVER_NAME_RULE)
    .refine((name) => name !== 'flowbench', 'the name "flowbench" stands for your published flows'),
  /** Time to start and initialise the server before it counts as unavailable. */
  connectTimeoutMs: z.number().int().min(100).max(300_000).default(20_000),
  /** Time one tool call may take, unless a node sets its own. */
  toolTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
};

export const StdioServerSchema = z.object({
  ...serverBase,
  transport: z.literal('stdio'),
  command: z.string().min(1, 'a server started as a command needs the command (e.g. npx)').max(4096),
  args: z.array(z.string().max(4096)).max(200).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string()).default({}),
  /** The working folder; empty: Flowbench's own. */
  cwd: z.string().max(4096).optional(),
});

export const HttpServerSchema = z.object({
  ...serverBase,
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }),
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,128}$/, 'a header name'), z.string()).default({}),
});

export const McpServerConfigSchema = z.discriminatedUnion('transport', [StdioServerSchema, HttpServerSchema]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** What a server is reached by, as a person reads it: its command line, or its URL. */
export const serverTarget = (config: McpServerConfig): string =>
  config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;

export const ServerSettingsSchema = z.object({ servers: z.array(McpServerConfigSchema).default([]) });

/**
 * The server name an agent's tool uses for a published Flowbench flow: the
 * tool is the flow's tool name, and a call is a child run of the agent's run.
 */
export const FLOWBENCH_SERVER = 'flowbench';

/** A tool as people read and type it: `server/tool`, or its bare name when any connected server's will do. */
export const toolLabel = (ref: { server: string; tool: string }): string =>
  ref.server ? `${ref.server}/${ref.tool}` : ref.tool;

/** Where secrets are shown instead of their values. */
export const SECRET_MASK = '••••••';

/** A server's settings as the editor and `servers list` see them: env and header values masked. */
export function maskServer(config: McpServerConfig): McpServerConfig {
  const mask = (values: Record<string, string>) =>
    Object.fromEntries(Object.keys(values).map((key) => [key, SECRET_MASK]));
  return config.transport === 'stdio'
    ? { ...config, env: mask(config.env) }
    : { ...config, headers: mask(config.headers) };
}

/**
 * An edit that sends a masked value back keeps the stored one: the editor
 * never holds the secret, and saving other fields must not erase it.
 */
export function keepSecrets(edited: McpServerConfig, stored: McpServerConfig | undefined): McpServerConfig {
  if (!stored || stored.transport !== edited.transport) return edited;
  const keep = (values: Record<string, string>, old: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === SECRET_MASK ? (old[k] ?? '') : v]));
  if (edited.transport === 'stdio' && stored.transport === 'stdio') {
    return { ...edited, env: keep(edited.env, stored.env) };
  }
  if (edited.transport === 'http' && stored.transport === 'http') {
    return { ...edited, headers: keep(edited.headers, stored.headers) };
  }
  return edited;
}

/** One tool a server offers (`tools/list`). */
export interface ToolInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export type ServerState = 'idle' | 'connecting' | 'connected' | 'failed';

/** How a server stands, for the servers screen and `servers list`. */
export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why the last connection or call failed, until the next success. */
  lastError?: { code: string; message: string; at: string };
  connectedAt?: string;
  /** The tools from the last `tools/list`, refreshed when the server says they changed. */
  tools?: ToolInfo[];
  /** The server's own name and version, from `initialize`. */
  serverInfo?: { name: string; version: string };
  /** `sse`: an HTTP server reached over the older HTTP+SSE transport, as it does not speak Streamable HTTP. */
  transport?: 'sse';
}

/** A server as the servers screen and `servers list` show it: settings with secrets masked, and its state. */
export interface ServerListing {
  config: McpServerConfig;
  status: ServerStatus;
  /** Where its env or header values are kept, when it has any. */
  secretStore?: SecretStore;
}

/** What a tool call answered, in the shapes nodes use. */
export interface ToolResult {
  /** The text content joined; non-text content as JSON lines. */
  text: string;
  structuredContent?: unknown;
  /** The MCP content blocks as received. */
  content: unknown[];
  isError: boolean;
}

/** One tool call of a step, as recorded and streamed to the canvas. */
export interface ToolCallRecord {
  id: string;
  server: string;
  tool: string;
  arguments: unknown;
  startedAt: string;
  durationMs?: number;
  /** The text or structured result, when the call answered. */
  result?: unknown;
  error?: { code: string; message: string };
  /** The child run, when the tool is a published Flowbench flow. */
  runId?: string;
}

export interface ToolCallOptions {
  signal: AbortSignalLike;
  /** Overrides the server's tool time limit. */
  timeoutMs?: number;
}

/** How nodes reach MCP tools; the host connects servers on demand. */
export interface ToolPort {
  /** The tools of one server, connecting to it when needed. Throws SERVER_NOT_FOUND or SERVER_UNAVAILABLE. */
  listTools(server: string, signal: AbortSignalLike): Promise<ToolInfo[]>;
  /**
   * Finds a tool by name: on `server`, or on every connected server when
   * `server` is empty. Throws TOOL_NOT_FOUND naming what exists.
   */
  findTool(server: string, tool: string, signal: AbortSignalLike): Promise<ToolInfo>;
  /**
   * Calls a tool after checking the arguments against its input schema.
   * An error the tool reports is a result with isError; the call failing
   * (time limit, server gone) throws.
   */
  callTool(server: string, tool: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult>;
}

/**
 * The value a tool's result stands for in a flow: its structured content, else
 * its text with each image as its data: URL, so that a vision model the flow
 * hands it to sees the picture and a client the flow answers gets it back as
 * an image.
 */
export function toolOutput(result: ToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!result.content.some(isImage)) return result.text;
  return withImages(result.content, () => true);
}

/**
 * What an agent's model reads of a tool's result: the content blocks, as MCP
 * clients show them, each picture a vision model reads (PICTURE_TYPES) as its
 * data: URL (sent to the model as an image, see promptImages); other bytes
 * are left out. A result with only structured content reads as its JSON.
 */
export function modelText(result: ToolResult): string {
  if (result.text === '' && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return withImages(result.content, (type) => PICTURE_TYPES.has(type));
}

/** The blocks joined as contentText joins them, but the images of the types `takes` accepts as data: URLs. */
const withImages = (content: readonly unknown[], takes: (type: string) => boolean): string =>
  content
    .map((block) =>
      isImage(block) && takes(block.mimeType) ? dataUrl(block.mimeType, block.data) : contentText([block]),
    )
    .join('\n');

const isImage = (block: unknown): block is { type: 'image'; mimeType: string; data: string } => {
  const b = block as { type?: unknown; mimeType?: unknown; data?: unknown };
  return b.type === 'image' && typeof b.mimeType === 'string' && typeof b.data === 'string';
};

/** Joins MCP content blocks into text: text blocks as they are, others as one JSON line each. */
export function contentText(content: readonly unknown[]): string {
  return content
    .map((block) => {
      const b = block as { type?: unknown; text?: unknown };
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      // Binary payloads are left out of the text a model or a flow sees; the record keeps them.
      return JSON.stringify(block, (key, value: unknown) => (key === 'data' || key === 'blob' ? undefined : value));
    })
    .join('\n');
}
