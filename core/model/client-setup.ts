/** The desktop MCP clients Flowbench writes a config for, and what the editor shows of each. */

/** The port `flowbench serve` (and the app) serve HTTP on unless told otherwise. */
export const DEFAULT_PORT = 4747;

/** How a client reaches Flowbench's MCP server. */
export interface Endpoints {
  /** The stdio entry: `node bin/flowbench mcp --db <db>`. */
  stdio: { command: string; args: string[]; env?: Record<string, string> };
  /** The Streamable HTTP endpoint (`flowbench serve`'s, or the app's) and its bearer header. */
  http: { url: string; headers: Record<string, string> };
  /** Whether this process serves that URL now, and anything to know about it (another port than asked). */
  serving?: { running: boolean; note?: string };
}

export const CLIENTS = ['claude', 'claude-code', 'cursor', 'vscode', 'windsurf', 'generic'] as const;
export type Client = (typeof CLIENTS)[number];
/** The clients with a config file of their own (`generic` is a snippet only). */
export const WRITABLE_CLIENTS = ['claude', 'claude-code', 'cursor', 'vscode', 'windsurf'] as const;
export type WritableClient = (typeof WRITABLE_CLIENTS)[number];

export const CLIENT_LABELS: Record<WritableClient, string> = {
  claude: 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
};

/**
 * The config a client keeps for one project, in that project's folder
 * (shared with its repository): Cursor's, VS Code's and Claude Code's.
 * Claude Desktop and Windsurf keep none.
 */
export const PROJECT_CONFIG_FILES: Partial<Record<WritableClient, string>> = {
  cursor: '.cursor/mcp.json',
  vscode: '.vscode/mcp.json',
  'claude-code': '.mcp.json',
};

/** One client as the Connect screen shows it: the snippet, and the file `write` would change. */
export interface ClientSetup {
  client: WritableClient;
  label: string;
  file: string;
  fileExists: boolean;
  snippet: Record<string, unknown>;
}

export interface WriteResult {
  file: string;
  /** The copy of the file as it was, when there was one. */
  backup?: string;
  added: string[];
  updated: string[];
  /** Servers that were there and still are. */
  kept: string[];
}
