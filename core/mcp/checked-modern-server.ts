import { ProtocolError, ProtocolErrorCode, Server, specTypeSchemas } from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import { describeIssues } from '../model/parse';
import { abortCallsInFlight } from './connection-closed';

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The v2 SDK's Server, answering a tools/call whose params break the spec's
 * schema with each issue named (`Invalid params for tools/call: arguments:
 * Invalid input: expected record, received string`), as the SDK answers the
 * other methods Flowbench registers with a params schema. The Server checks
 * tools/call in the wrapper it puts around every handler of it, before
 * Flowbench's runs, and said zod's issue list as JSON.
 *
 * Only a call the SDK refused is read again, to name its issues: a call that
 * passes is parsed once, as before. `_wrapHandler` is the SDK's documented
 * hook for subclasses to wrap handlers.
 */
export class CheckedModernServer extends Server {
  /** The calls still going end saying why (see abortCallsInFlight); `_onclose` is the SDK's documented hook. */
  protected override _onclose(): void {
    abortCallsInFlight(this);
    super._onclose();
  }

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return (request, ctx) =>
      wrapped(request, ctx).catch((error: unknown) => {
        throw inWords(error, request) ?? error;
      });
  }
}

/** The SDK's refusal of a tools/call's params, its issues named; undefined for any other error. */
function inWords(error: unknown, request: JSONRPCRequest): ProtocolError | undefined {
  if (!(error instanceof ProtocolError) || error.code !== (ProtocolErrorCode.InvalidParams as number)) return undefined;
  // The spec's zod schema: its check is synchronous.
  const checked = specTypeSchemas.CallToolRequestParams['~standard'].validate(request.params ?? {});
  if (!checked.issues?.length) return undefined;
  const issues = checked.issues.map(({ path = [], message }) => ({
    message,
    path: path.map((segment) => (typeof segment === 'object' ? segment.key : segment)),
  }));
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params for tools/call: ${describeIssues(issues, 'params')}`,
  );
}
