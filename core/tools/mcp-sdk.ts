/**
 * The MCP SDK's client side, as McpConnections uses it. Loaded on the first
 * connection to a server (see loadMcpSdk in mcp-connections.ts): the SDK, its
 * zod 3 schemas and ajv were over a quarter of what every CLI command parsed
 * at start, for the few runs that call an MCP tool.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
