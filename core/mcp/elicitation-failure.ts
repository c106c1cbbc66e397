import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { FlowbenchError } from '../model/errors';
import { describeIssues, type Issue } from '../model/parse';

/**
 * Why a client's answer to an ask node's `elicitation/create` could not be
 * used, as the node's error. The SDK rejects with its own errors (zod's issue
 * list as JSON, "MCP error -32601: …"), which the run recorded as
 * INTERNAL_ERROR, a Flowbench bug to report; they are the client's doing:
 * - an answer that is no elicitation result, or no JSON-RPC response at all
 *   (see invalidResponseAsError): HUMAN_INPUT_INVALID, saying what is wrong;
 * - an error answer, a client gone or silent for the SDK's whole wait:
 *   HUMAN_INPUT_UNAVAILABLE, with the client's words.
 * A run cancelled meanwhile (the signal) keeps its own reason.
 */
export function elicitationFailure(nodeId: string, thrown: unknown, signal: { aborted: boolean }): unknown {
  if (signal.aborted) return thrown;
  const issues = (thrown as { issues?: unknown } | undefined)?.issues;
  if (Array.isArray(issues)) {
    return invalidAnswer(
      nodeId,
      (issues as Issue[]).map((issue) => ({ message: describeIssues([issue], 'the result') })),
    );
  }
  if (!(thrown instanceof McpError)) return thrown;
  const invalid = (thrown.data as { invalidResponse?: unknown } | undefined)?.invalidResponse;
  if (typeof invalid === 'string') return invalidAnswer(nodeId, [{ message: invalid }]);
  return new FlowbenchError(
    'HUMAN_INPUT_UNAVAILABLE',
    `node "${nodeId}" asks a person for input, and the client could not ask: ${thrown.message}`,
    { nodeId, clientError: { code: thrown.code, message: thrown.message } },
  );
}

function invalidAnswer(nodeId: string, problems: { message: string }[]): FlowbenchError {
  return new FlowbenchError(
    'HUMAN_INPUT_INVALID',
    `node "${nodeId}": the client's answer is not an elicitation result (${problems.map((p) => p.message).join('; ')})`,
    { nodeId, problems },
  );
}
