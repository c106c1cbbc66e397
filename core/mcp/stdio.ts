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
import { whenStdoutClosed } from '../services/stdout-closed';

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
  // While the client reads slower than answers come, each answer waits for 'drain' (the SDKs' send):
  // many calls at once are many listeners, not a leak, and Node's warning of one went to the client's log.
  process.stdout.setMaxListeners(0);
  const input = new LineLimiter(process.stdin, MAX_STDIO_MESSAGE_BYTES, (start, size) => {
    const limit = MAX_STDIO_MESSAGE_BYTES / 1024 / 1024;
    const what = `the message is ${(size / 1024 / 1024).toFixed(1)} MB; messages are limited to ${limit} MB`;
    toStdout(`${JSON.stringify(errorResponse(requestIdIn(start), -32600, what))}\n`);
    process.stderr.write(`flowbench mcp: refused a message of ${size} bytes\n`);
  });
  const opening = await firstLine(input);
  host.startWatching();
  process.stderr.write(`flowbench mcp: serving ${host.catalogue().size} flow tool(s) from ${services.database.path}\n`);
  const connection: Promise<StdioConnection | undefined> =
    opening === undefined
      ? Promise.resolve(undefined)
      : isInitialize(opening)
        ? Promise.resolve(serveLegacy(host, input))
        : // The v2 SDK is loaded only for the connections it serves.
          import('./stdio-modern').then(({ serveModern }) => serveModern(host, input));
  const stop = whenStopped();
  // A client that died closed our stdout too: its calls' answers cannot go anywhere, so they are not waited for.
  const readerGone = whenStdoutClosed().then(() => {
    process.stderr.write('flowbench mcp: the client stopped reading (its end of stdout closed): closing\n');
    process.stdin.destroy();
  });
  let stoppedBy = await Promise.race([
    connection.then((c) => c?.closed).then(() => undefined),
    readerGone.then(() => undefined),
    stop.signal,
  ]);
  if (stoppedBy === undefined) {
    // The client closed the connection: questions asked through it (an ask node's, in a task) fail, as
    // nobody can answer them any more. Runs it started in the background (flows_start, tasks) go on to
    // their end and are stored, as flows_start promises, unless the client stops this process meanwhile
    // (SIGTERM, as clients do some time after closing the connection).
    await host.close();
    stoppedBy = await Promise.race([services.runner.idle().then(() => undefined), stop.signal]);
  }
  stop.dispose();
  if (stoppedBy === undefined) return;
  // Runs still going end cancelled, saying why, and are stored before the database closes; a call still
  // waiting is answered so while the connection is open.
  await services.runner.stop(`\`flowbench mcp\` was stopped (${HOW_STOPPED[stoppedBy]}) while the run was going`);
  await (await connection)?.pending.settled(ANSWER_WAIT_MS);
  await host.close();
  // Read no more: the process ends now, whatever the client left open.
  process.stdin.destroy();
}

const HOW_STOPPED: Record<'SIGTERM' | 'SIGINT', string> = {
  SIGTERM: 'SIGTERM, as an MCP client stops it when it closes',
  SIGINT: 'Ctrl-C',
};

/** Resolves with the signal's name on the first SIGTERM or SIGINT; a second one after dispose ends the process at once. */
function whenStopped(): { signal: Promise<keyof typeof HOW_STOPPED>; dispose: () => void } {
  const listeners: [NodeJS.Signals, () => void][] = [];
  const signal = new Promise<keyof typeof HOW_STOPPED>((resolve) => {
    for (const name of ['SIGTERM', 'SIGINT'] as const) {
      const listener = () => resolve(name);
      listeners.push([name, listener]);
      process.once(name, listener);
    }
  });
  return { signal, dispose: () => listeners.forEach(([name, listener]) => process.off(name, listener)) };
}

/** How long a stopped `flowbench mcp` waits for the answers of the calls it has just cancelled. */
const ANSWER_WAIT_MS = 1_000;

/** One stdio connection being served: what it asked and is not answered yet, and its end. */
export interface StdioConnection {
  pending: PendingAnswers;
  /** Resolves when the client has closed it (its input ended, every request answered). */
  closed: Promise<void>;
}

function serveLegacy(host: McpHost, input: Readable): StdioConnection {
  const server = createLegacyServer(host);
  const transport = answerInvalidLines(new LegacyStdioTransport(input, process.stdout), deserializeMessage, toStdout);
  const pending = new PendingAnswers(transport);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    // The client closed stdin: what it asked is answered before the server goes.
    input.once('end', () => void pending.settled().then(resolve));
  });
  const served = server.connect(transport).then(() => {
    input.resume(); // Paused by firstLine, with the first message put back.
    return closed;
  });
  return { pending, closed: served };
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
