// The start-up baseline: a bare MCP SDK server over stdio in plain JavaScript,
// the least any Node MCP server that uses the SDK can cost to start.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, ({ message }) => ({
  content: [{ type: 'text', text: message }],
}));
await server.connect(new StdioServerTransport());
