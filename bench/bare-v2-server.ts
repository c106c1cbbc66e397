import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { serveFetch } from '../core/mcp/modern-http';
import { journalAppender } from './journal-append';

const append = journalAppender();

/**
 * The baseline for both protocol revisions: a bare v2 SDK server whose one
 * tool echoes, served the way the SDK serves both eras (serveStdio;
 * createMcpHandler, stateless for 2025 requests). Its HTTP side goes through
 * the same Node-to-Fetch adapter as Flowbench's, so only the servers differ.
 * Usage: bare-v2-server.ts stdio | http (prints its URL). With
 * FLOWBENCH_BENCH_APPEND, each echo appends a journal line first (journal-append.ts).
 */
function echoServer(): McpServer {
  const server = new McpServer({ name: 'bare-echo-v2', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes', inputSchema: z.object({ message: z.string() }) },
    ({ message }) => {
      append?.(message);
      return { content: [{ type: 'text', text: message }] };
    },
  );
  return server;
}

if (process.argv[2] === 'http') {
  const handler = createMcpHandler(() => echoServer());
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const parsedBody: unknown = raw ? JSON.parse(raw) : undefined;
      void serveFetch(req, res, (request) => handler.fetch(request, { parsedBody }));
    });
  });
  http.listen(0, '127.0.0.1', () =>
    process.stdout.write(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`),
  );
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  serveStdio(() => echoServer());
}
