import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { journalAppender } from './journal-append';

const append = journalAppender();

/**
 * The baseline of the MCP benchmark: a bare SDK server whose one tool echoes.
 * Usage: bare-mcp-server.ts stdio | http (prints its URL). With
 * FLOWBENCH_BENCH_APPEND, each echo appends a journal line first (journal-append.ts).
 */
function echoServer(): McpServer {
  const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, ({ message }) => {
    append?.(message);
    return { content: [{ type: 'text', text: message }] };
  });
  return server;
}

if (process.argv[2] === 'http') {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      const id = req.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing) return void existing.handleRequest(req, res, body);
      if (!isInitializeRequest(body)) {
        res.writeHead(400);
        return void res.end();
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
      void echoServer()
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body));
    });
  });
  http.listen(0, '127.0.0.1', () =>
    process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`),
  );
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  await echoServer().connect(new StdioServerTransport());
}
