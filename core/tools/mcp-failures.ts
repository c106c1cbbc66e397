import { existsSync } from 'node:fs';
import { splitCommandLine } from '../model/command-line';
import { FlowbenchError } from '../model/errors';
import { describeIssues, type Issue } from '../model/parse';
import { serverTarget, type McpServerConfig } from '../model/tools';
import type * as McpSdkModule from './mcp-sdk';
import { stderrHint } from './stderr-hint';

/**
 * How Flowbench as an MCP client says a server's failures: the SDK's errors
 * (loaded with the SDK, see loadMcpSdk) and what a connect or a call met,
 * worded for the person who set the server up.
 */

export type McpSdk = typeof McpSdkModule;
let sdk: McpSdk | undefined;
/** The SDK's client side, loaded by the first connection of the process (see mcp-sdk.ts). */
export async function loadMcpSdk(): Promise<McpSdk> {
  sdk ??= await import('./mcp-sdk');
  return sdk;
}

/** An error of the SDK's with this JSON-RPC code; only a connection attempt, which loads the SDK, throws one. */
export function isMcpError(thrown: unknown, code: 'RequestTimeout' | 'ConnectionClosed'): boolean {
  return sdk !== undefined && thrown instanceof sdk.McpError && thrown.code === Number(sdk.ErrorCode[code]);
}

/**
 * The JSON-RPC error code Flowbench settles a call with when its server ended
 * the answer's stream without the answer (answer-stream-watch.ts): one of the
 * codes JSON-RPC leaves to implementations.
 */
export const UNANSWERED = -32099;

/** A call settled so (see UNANSWERED). */
export function isUnanswered(thrown: unknown): boolean {
  return sdk !== undefined && thrown instanceof sdk.McpError && thrown.code === UNANSWERED;
}

/** The HTTP status a Streamable HTTP connect was refused with, if that is how it failed. */
export function refusedStatus(thrown: unknown): number | undefined {
  return sdk !== undefined && thrown instanceof sdk.StreamableHTTPError ? thrown.code : undefined;
}

export const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A call whose answer went past the SDK's stdio limit: the tool's doing, not the server going away. */
export function overLimitError(server: string, tool: string, limit: number): FlowbenchError {
  return new FlowbenchError(
    'TOOL_ERROR',
    `${server}/${tool} answered with a message over ${megabytes(limit)}, more than Flowbench reads from a server over stdio: the connection was closed, and the next call opens it again`,
    { server, tool, limitBytes: limit },
  );
}

/** Why a server could not be connected, in words a person can act on. */
export function connectError(config: McpServerConfig, thrown: unknown, stderr: string): FlowbenchError {
  const what = config.transport === 'stdio' ? `\`${serverTarget(config)}\`` : config.url;
  // Connected, and its tool list refused by the SDK (listAll): which entry, and what MCP does not allow there.
  if (thrown instanceof ToolListRefused) {
    return new FlowbenchError(
      'SERVER_UNAVAILABLE',
      `MCP server "${config.name}" (${what}) lists tools MCP does not allow, so none of them can be used (its author can fix it): ${describeIssues(thrown.issues, 'tools')}`,
      { server: config.name },
    );
  }
  const refused = refusedStatus(thrown);
  const reason = isMcpError(thrown, 'RequestTimeout')
    ? `did not answer within ${config.connectTimeoutMs} ms`
    : isUnanswered(thrown)
      ? 'ended its answer stream without the answer'
      : isMcpError(thrown, 'ConnectionClosed')
        ? 'exited before answering'
        : refused === 401 || refused === 403
          ? `refused the connection (HTTP ${refused}: ${(thrown as Error).message}); a server that needs a token takes it in its headers (Authorization: Bearer …)`
          : `did not start: ${startFailure(config, thrown)}`;
  return new FlowbenchError(
    'SERVER_UNAVAILABLE',
    `MCP server "${config.name}" (${what}) ${reason}${stderrHint(stderr)}`,
    {
      server: config.name,
    },
  );
}

/**
 * Why a stdio server's process did not start. Node says "spawn <command>
 * ENOENT" both when the command is not found and when the working folder
 * does not exist, which sent people looking for a command that was there.
 */
function startFailure(config: McpServerConfig, thrown: unknown): string {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  if (config.transport === 'http') return httpAnswerProblem(thrown) ?? message;
  if ((thrown as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return message;
  if (config.cwd && !existsSync(config.cwd)) return `its working folder ${config.cwd} does not exist (${message})`;
  const split = config.args.length === 0 ? splitCommandLine(config.command) : undefined;
  // A command line given whole names no program: say how it goes in two parts.
  const apart = split
    ? `; a command and its arguments are given apart: "${split.command}" as the command, ${split.args.map((a) => `"${a}"`).join(', ')} as its arguments`
    : '';
  return `the command "${config.command}" was not found (${message})${apart}`;
}

/**
 * Why an HTTP server's first answer was no MCP answer, said for people: the
 * URL of a web page or of another API is the usual cause, and the SDK's own
 * words were "Unexpected content type: text/html", a JSON parser's position,
 * or zod's issues as JSON; one nobody answers at was "fetch failed".
 */
function httpAnswerProblem(thrown: unknown): string | undefined {
  const away = unreachable(thrown);
  if (away !== undefined) return `it cannot be reached (${away})`;
  const endpoint = "is this the server's MCP endpoint (often ending in /mcp)?";
  const message = thrown instanceof Error ? thrown.message : '';
  const type = /Unexpected content type: (.*)$/.exec(message)?.[1];
  if (type !== undefined)
    return `it answered with ${type || 'no content type'}, not MCP's JSON or event stream: ${endpoint}`;
  if (thrown instanceof SyntaxError) return `its answer is not JSON (${message}): ${endpoint}`;
  if (thrown instanceof Error && thrown.name === 'ZodError')
    return `its answer is JSON but no MCP message: ${endpoint}`;
  const status = refusedStatus(thrown);
  if (status !== undefined && status >= 500) return `it failed with HTTP ${status} (${message})`;
  return undefined;
}

/** SERVER_NOT_FOUND, naming the servers there are (or how to add one). */
export function serverNotFound(name: string, known: readonly string[]): FlowbenchError {
  return new FlowbenchError(
    'SERVER_NOT_FOUND',
    `no MCP server is named "${name}"${known.length > 0 ? ` (servers: ${known.join(', ')})` : ' (none is set up: `flowbench servers add`)'}`,
    { server: name },
  );
}

/** A tool list the SDK refused (a tool's schema MCP does not allow), with the SDK's issues. */
export class ToolListRefused extends Error {
  constructor(readonly issues: readonly Issue[]) {
    super('the tool list is not valid MCP');
  }
}

/** A failed connect of a call that went again in a new session (see callTool). */
export class Reconnect extends Error {
  constructor(readonly error: unknown) {
    super('connecting again failed');
  }
}

/**
 * Whether an HTTP server refused a request for its session: 404, as the
 * specification says a server answers a session it no longer has, or 400
 * naming the session, as the SDK's own servers (server-everything) answer it.
 */
export function lostSession(thrown: unknown): boolean {
  const status = refusedStatus(thrown);
  return status === 404 || (status === 400 && /session/i.test((thrown as Error).message));
}

/** Why an HTTP server could not be reached (fetch's "fetch failed" and its cause), or undefined for any other failure. */
export function unreachable(thrown: unknown): string | undefined {
  if (!(thrown instanceof TypeError) || thrown.message !== 'fetch failed') return undefined;
  const cause = (thrown as { cause?: { message?: unknown } }).cause?.message;
  return typeof cause === 'string' ? cause : thrown.message;
}

/**
 * Whether a failed Streamable HTTP connect is a refusal a server of the older
 * HTTP+SSE transport gives its first POST (404, 405, 400): not an
 * authorization refusal (401, 403), which SSE would meet as well.
 */
export function speaksOnlySse(thrown: unknown): boolean {
  const status = refusedStatus(thrown);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
