import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  getObjectShape,
  safeParse,
  type AnyObjectSchema,
  type SchemaOutput,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
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
 */
export class CheckedServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Handler<T>): void {
    const method = getObjectShape(requestSchema)?.method;
    // No method to name: the SDK refuses the schema in its own words.
    if (!method) return super.setRequestHandler(requestSchema, handler);
    const methodOnly = z.looseObject({ method: method as z.ZodType<string> });
    // The SDK's tools/call wrapper checks the whole request itself first and answers -32602:
    // checking it here as well would parse each call twice. Its handler then gets the request
    // as sent, which that check passed (the schema has no defaults or transforms to apply).
    if ((method as z.ZodLiteral<string>).value === 'tools/call')
      return super.setRequestHandler(methodOnly as never, handler);
    super.setRequestHandler(methodOnly, (request, extra) => {
      const parsed = safeParse(requestSchema, request);
      if (!parsed.success) {
        const issues = (parsed.error as z.ZodError).issues;
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${describeIssues(issues, 'params')}`);
      }
      return handler(parsed.data, extra);
    });
  }
}
