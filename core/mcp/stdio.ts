import { PassThrough, type Readable } from 'node:stream';
import { StdioServerTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services/open-services';
import { createLegacyServer } from './legacy-server';
import { LineLimiter, MAX_STDIO_MESSAGE_BYTES, requestIdIn } from './line-limit';
import { McpHost } from './mcp-host';

/**
 * `flowbench mcp`: one MCP connection over stdin/stdout, of whichever
 * revision the client opens with: `initialize` pins it to 2025-11-25 (the v1
 * SDK's server on its own transport: the v2 entry in between halved the
 * calls per second), anything else goes to the v2 SDK's entry, which serves
 * `server/discover` and 2026-07-28 (and any other 2025 opening). Nothing but
 * protocol goes to stdout; diagnostics go to stderr. Resolves when the
 * client hangs up.
 */
export async function serveStdio(services: Services, version: string): Promise<void> {
  const host = new McpHost(services, version);
  const input = process.stdin.pipe(
    new LineLimiter(MAX_STDIO_MESSAGE_BYTES, (start, size) => {
      const error = {
        code: -32600,
        message: `the message is ${(size / 1024 / 1024).toFixed(1)} MB; messages are limited to ${MAX_STDIO_MESSAGE_BYTES / 1024 / 1024} MB`,
      };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: requestIdIn(start), error })}\n`);
      process.stderr.write(`flowbench mcp: refused a message of ${size} bytes\n`);
    }),
  );
  const opening = await firstLine(input);
  host.startWatching();
  process.stderr.write(`flowbench mcp: serving ${host.catalogue().size} flow tool(s) from ${services.database.path}\n`);
  if (opening && isInitialize(opening.line)) await serveLegacy(host, opening.stream);
  // The v2 SDK is loaded only for the connections it serves.
  else if (opening) await (await import('./stdio-modern')).serveModern(host, opening.stream);
  await host.close();
}

async function serveLegacy(host: McpHost, input: Readable): Promise<void> {
  const server = createLegacyServer(host);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once('end', () => resolve());
  });
  await server.connect(new LegacyStdioTransport(input, process.stdout));
  await closed;
}

/**
 * Reads ahead to the end of the first message, and gives back that line and
 * a stream that starts with it and goes on with the rest of the input (what
 * the transport serving the connection reads); undefined when the input ends
 * before a whole line.
 */
function firstLine(input: Readable): Promise<{ line: string; stream: Readable } | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (!chunk.includes(10)) return;
      input.off('data', onData);
      input.off('end', onEnd);
      const all = Buffer.concat(chunks);
      const stream = new PassThrough();
      stream.write(all);
      input.pipe(stream);
      resolve({ line: all.subarray(0, all.indexOf(10)).toString('utf8'), stream });
    };
    const onEnd = () => resolve(undefined);
    input.on('data', onData);
    input.once('end', onEnd);
  });
}

/** A 2025-11-25 opening: `initialize` without the 2026-07-28 per-request envelope. */
function isInitialize(line: string): boolean {
  try {
    const message = JSON.parse(line) as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
    return (
      message.method === 'initialize' &&
      message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === undefined
    );
  } catch {
    return false;
  }
}
