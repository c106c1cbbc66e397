import type { Readable } from 'node:stream';
import { StdioServerTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Services } from '../services/open-services';
import { createLegacyServer } from './legacy-server';
import { LineLimiter, MAX_STDIO_MESSAGE_BYTES, requestIdIn } from './line-limit';
import { McpHost } from './mcp-host';
import { PendingAnswers } from './pending-answers';
import { answerInvalidLines, toStdout } from './stdio-reader';
import { coalesceWrites } from './coalesced-writes';
import { errorResponse } from './jsonrpc-errors';

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
  // The answers of one turn leave in one system call (see coalesceWrites).
  coalesceWrites(process.stdout);
  const input = new LineLimiter(process.stdin, MAX_STDIO_MESSAGE_BYTES, (start, size) => {
    const limit = MAX_STDIO_MESSAGE_BYTES / 1024 / 1024;
    const what = `the message is ${(size / 1024 / 1024).toFixed(1)} MB; messages are limited to ${limit} MB`;
    toStdout(`${JSON.stringify(errorResponse(requestIdIn(start), -32600, what))}\n`);
    process.stderr.write(`flowbench mcp: refused a message of ${size} bytes\n`);
  });
  const opening = await firstLine(input);
  host.startWatching();
  process.stderr.write(`flowbench mcp: serving ${host.catalogue().size} flow tool(s) from ${services.database.path}\n`);
  if (opening !== undefined && isInitialize(opening)) await serveLegacy(host, input);
  // The v2 SDK is loaded only for the connections it serves.
  else if (opening !== undefined) await (await import('./stdio-modern')).serveModern(host, input);
  await host.close();
}

async function serveLegacy(host: McpHost, input: Readable): Promise<void> {
  const server = createLegacyServer(host);
  const transport = answerInvalidLines(new LegacyStdioTransport(input, process.stdout), deserializeMessage, toStdout);
  const pending = new PendingAnswers(transport);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    // The client closed stdin: what it asked is answered before the server goes.
    input.once('end', () => void pending.settled().then(resolve));
  });
  await server.connect(transport);
  input.resume(); // Paused by firstLine, with the first message put back.
  await closed;
}

/**
 * Reads ahead to the end of the first message and gives back that line;
 * undefined when the input ends before a whole line. What was read is put
 * back and the input left paused: the transport serving the connection reads
 * it from the start once it listens, and its caller resumes the input then.
 * (Piping on to a new stream instead cost each later message one more stream
 * hop, about 3 µs of a stdio round trip here.)
 */
function firstLine(input: Readable): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (!chunk.includes(10)) return;
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      const all = Buffer.concat(chunks);
      input.unshift(all);
      resolve(all.subarray(0, all.indexOf(10)).toString('utf8'));
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
