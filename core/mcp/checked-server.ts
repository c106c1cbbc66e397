import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  getObjectShape,
  safeParse,
  type AnyObjectSchema,
  type SchemaOutput,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
  type Notification,
  type Request,
  type Result,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues } from '../model/parse';
import { abortCallsInFlight } from './connection-closed';

type Handler<T extends AnyObjectSchema> = (
  request: SchemaOutput<T>,
  extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
) => ServerResult | Result | Promise<ServerResult | Result>;

/**
 * The v1 SDK's Server, answering a request whose params break its method's
 * schema with -32602 (Invalid params) and each issue named (`params.uri:
 * Invalid input: expected string, received number`). The SDK checks a
 * handler's request in a step whose error carries no code, so such a request
 * was answered -32603, an internal error, with zod's issue list as JSON.
 *
 * Every handler goes through here, the SDK's own (ping, tasks/*) too: its
 * constructor registers them through this method. The SDK is given a schema
 * that names the method and checks nothing else; the handler gets the request
 * as the full schema reads it.
 *
 * tools/call keeps the checks the SDK's Server wraps around its handler (the
 * request, then the result), in Flowbench's words: the SDK's request check
 * answered -32602 with zod's issue list as JSON (`Invalid tools/call
 * request: [ { "expected": "record", … } ]`).
 */
export class CheckedServer extends Server {
  /**
   * The calls still going end saying why when the connection closes (see
   * abortCallsInFlight): the SDK calls the transport's earlier `onclose`
   * before its own close, which aborts them with no reason.
   */
  override async connect(transport: Transport): Promise<void> {
    const earlier = transport.onclose;
    transport.onclose = () => {
      abortCallsInFlight(this);
      earlier?.();
    };
    return super.connect(transport);
  }

  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Handler<T>): void {
    const method = getObjectShape(requestSchema)?.method;
    // No method to name: the SDK refuses the schema in its own words.
    if (!method) return super.setRequestHandler(requestSchema, handler);
    const methodOnly = z.looseObject({ method: method as z.ZodType<string> });
    if ((method as z.ZodLiteral<string>).value === 'tools/call') return this.setToolsCallHandler(methodOnly, handler);
    super.setRequestHandler(methodOnly, (request, extra) => handler(checked(requestSchema, request), extra));
  }

  /**
   * The SDK's tools/call wrapper with its checks in words: registered on the
   * Protocol the Server extends, past the Server's own wrapper, so the request
   * is parsed once. The handler gets the request as sent, as the SDK's gave
   * it (the schema has no defaults or transforms to apply).
   */
  private setToolsCallHandler<T extends AnyObjectSchema>(methodOnly: AnyObjectSchema, handler: Handler<T>): void {
    Protocol.prototype.setRequestHandler.call(this, methodOnly, async (request, extra) => {
      const { params } = checked(CallToolRequestSchema, request);
      const result = await handler(request as SchemaOutput<T>, extra);
      // A result that breaks the schema is Flowbench's fault, not the caller's: an internal error.
      const [what, schema] = params.task
        ? ['task creation result', CreateTaskResultSchema]
        : ['tools/call result', CallToolResultSchema];
      const parsed = safeParse(schema, result);
      if (parsed.success) return parsed.data;
      throw new McpError(
        ErrorCode.InternalError,
        `Invalid ${what}: ${describeIssues(issuesOf(parsed.error), 'result')}`,
      );
    });
  }
}

const issuesOf = (error: unknown) => (error as z.ZodError).issues;

/** The request as the schema reads it; -32602 naming each issue when it breaks the schema. */
function checked<T extends AnyObjectSchema>(schema: T, request: unknown): SchemaOutput<T> {
  const parsed = safeParse(schema, request);
  if (parsed.success) return parsed.data;
  throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(issuesOf(parsed.error), 'params')}`);
}
