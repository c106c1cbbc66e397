import type { Readable } from 'node:stream';
import { deserializeMessage, type Server as ModernServer } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createLegacyServer } from './legacy-server';
import type { McpHost } from './mcp-host';
import { PendingAnswers } from './pending-answers';
import type { StdioConnection } from './stdio';
import { createModernServer, ModernState } from './modern-server';
import { answerInvalidLines, toStdout } from './stdio-reader';

/**
 * A stdio connection that did not open with `initialize`: the v2 SDK's entry
 * serves it (`server/discover` pins it to 2026-07-28), with one modern
 * server for the connection, told of catalogue changes.
 */
export function serveModern(host: McpHost, input: Readable): StdioConnection {
  const transport = answerInvalidLines(new StdioServerTransport(input, process.stdout), deserializeMessage, toStdout);
  const pending = new PendingAnswers(transport);
  closeOnceAnswered(transport, pending);
  const state = new ModernState();
  const closed = new Promise<void>((resolve) => {
    const close = transport.close.bind(transport);
    transport.close = () => close().finally(resolve);
    // The client closed stdin: what it asked is answered before the server goes.
    input.once('end', () => void pending.settled().then(resolve));
  });
  const connection = serveBothEras(
    ({ era }) => {
      if (era === 'legacy') {
        // A 2025 client that opened with something other than initialize: the v1 server speaks the same Transport interface.
        return createLegacyServer(host) as unknown as ModernServer;
      }
      const server = createModernServer(host, state);
      // On a pinned stdio connection the entry turns this into a notification on each open listen stream.
      const detach = host.attach({
        toolsChanged: () => void server.sendToolListChanged().catch(() => undefined),
        close: () => server.close(),
      });
      server.onclose = detach;
      return server;
    },
    { transport, onerror: (error) => process.stderr.write(`flowbench mcp: ${error.message}\n`) },
  );
  // Paused by the reader of the first message (stdio.ts), which it put back; the transport listens now.
  input.resume();
  const served = closed.then(async () => {
    await connection.close();
    state.close();
  });
  return { pending, closed: served };
}

/**
 * The v2 SDK's stdio transport closes when stdin ends, and sends nothing
 * after: the answers of calls still running were lost. Its handler of that
 * end (a field neither SDK documents, checked here at start as `_readBuffer`
 * is) now waits for them first.
 */
function closeOnceAnswered(transport: StdioServerTransport, pending: PendingAnswers): void {
  const held = transport as unknown as { _onstdinclose?: () => void };
  const close = held._onstdinclose;
  if (typeof close !== 'function') {
    throw new Error("the MCP SDK's stdio transport has no _onstdinclose: Flowbench's wait for answers needs updating");
  }
  held._onstdinclose = () => void pending.settled().then(close);
}
