/**
 * The one error type of Flowbench. Every failure that reaches a user carries a
 * code from {@link ERROR_CODES}; codes (not classes) survive IPC, HTTP and MCP.
 */

/** The documented catalogue of error codes (see docs/errors.md). */
export const ERROR_CODES = {
  // Bad input from a user or a client: they can act on the message.
  USAGE_ERROR: 'a command was called with wrong arguments',
  VALIDATION_ERROR: 'the flow or the arguments break the rules; `data.problems` lists each one',
  INVALID_JSON: 'a file or body is not valid JSON',
  UNSUPPORTED_FORMAT: 'a file is not in a format Flowbench can import',
  FILE_NOT_FOUND: 'a file does not exist or cannot be read',
  FILE_NOT_WRITABLE: 'a file cannot be written where asked (a folder, or a place this user may not write in)',
  FILE_TOO_LARGE: 'a file is over the import size limit',
  FLOW_NOT_FOUND: 'no flow has that id, name or tool name',
  AMBIGUOUS_FLOW: 'more than one flow has that name',
  DUPLICATE_TOOL_NAME: 'another flow already uses that tool name',
  EDIT_CONFLICT: 'the edit was based on an older version of a node or flow',
  SESSION_INVALID:
    "the editor's session token is missing or not this Flowbench's; open the URL `flowbench serve` printed",
  CIRCULAR_DEPENDENCY: 'an imported flow has a cycle (the FlowyPrompt code; native flows list it as a problem)',
  INVALID_YAML: 'a file is not valid YAML, or uses aliases beyond the limit',
  NOT_A_DATABASE: 'the database file is not a Flowbench database',
  DATABASE_TOO_NEW: 'the database was written by a newer Flowbench',
  MISSING_VARIABLES: 'required inputs of a run are missing; `data.missing` lists them',
  RUN_NOT_FOUND: 'no run has that id',
  RESULT_EXPIRED:
    'flows_result: the run ended more than 24 hours ago; its record stays in Flowbench (`flowbench runs show`)',
  NODE_NOT_FOUND: 'the flow has no node with that id',
  REUSE_UNAVAILABLE:
    'a run from a node needs stored outputs of every node upstream of it, and the chosen run lacks one; `data.nodeId` names it',
  TESTS_FAILED: 'the flow must pass its test cases to publish, and some failed; `data.failed` names them',
  PROVIDER_NOT_FOUND: 'no model provider has that name',
  NO_PROVIDER:
    'a node uses the default model provider and none is the default: add one, or make one the default (the Providers screen, or `flowbench providers default <name>`)',
  MODEL_NOT_SET: 'a model node names no model and its provider has no default model',
  SERVER_NOT_FOUND: 'no connected MCP server has that name',
  CHANNEL_NOT_FOUND: 'the flow has no memory channel of that name',
  CLIENT_CONFIG_INVALID:
    "an MCP client's config file is not a JSON object Flowbench can add to, or cannot be written; it was left as it is",
  SECRET_UNAVAILABLE:
    "a key is kept in a store this process cannot open (the keychain, or the desktop app's safeStorage); enter it again",
  AGENT_NOT_FOUND: 'no agent or agent version has that id or name',
  AGENT_NOT_REVIEWED:
    'the flow uses an agent imported from a file that nobody has reviewed yet; review it (`flowbench agents review`) before publishing',
  SUBFLOW_CYCLE: 'a flow node would call its own flow, directly or through others',
  // Failures of a node while a flow runs.
  NODE_TIMEOUT: 'a node took longer than its time limit',
  PROVIDER_UNAVAILABLE: 'the model provider could not be reached',
  PROVIDER_RATE_LIMITED: 'the model provider answered 429 Too Many Requests',
  PROVIDER_AUTH_FAILED: 'the model provider refused the API key, or needs one and none is set',
  PROVIDER_ERROR: 'the model provider answered with an error',
  INVALID_MODEL_OUTPUT: "the model's answer is not the JSON the node asked for",
  NODE_NOT_RUNNABLE: 'this node type cannot run in this build',
  SERVER_UNAVAILABLE: 'an MCP server did not start, did not answer in time, or closed',
  TOOL_NOT_FOUND: 'a tool the flow or the model named is not offered by the connected servers',
  TOOL_ARGUMENTS_INVALID: "a tool call's arguments do not match the tool's input schema",
  TOOL_ERROR: 'an MCP tool answered with an error',
  TOOL_TIMEOUT: 'an MCP tool took longer than its time limit',
  STEP_LIMIT: 'an agent reached its step limit without answering',
  SUBFLOW_NOT_PUBLISHED: 'a flow node calls a flow that has no published version',
  SUBFLOW_FAILED: 'the flow a flow node called ended without succeeding; `data.runId` is its run',
  OUTPUT_MAPPING_FAILED:
    'a structured output field reads a path inside a node whose answer is text, not JSON; `data.fields` names each',
  TEMPLATE_NOT_FOUND: 'a template node runs a saved FlowyPrompt template the file did not carry (seed 001)',
  LOOP_LIMIT: 'a node took its loop edge back once more after the last pass its loop allows',
  HTTP_REQUEST_INVALID: "an HTTP request node's URL is not an http: or https: URL, or a header cannot be sent",
  HTTP_UNREACHABLE: 'an HTTP request node could not reach its URL (refused, no such host, a broken connection)',
  HTTP_CERTIFICATE:
    "an HTTP request node's URL answered with a certificate this machine does not trust, out of date or for another name (not retried)",
  HTTP_STATUS: 'an HTTP request node was answered with a status that is not 2xx (`data.status`)',
  HTTP_RESPONSE_TOO_LARGE: "an HTTP request node's response is over 10 MB",
  SECRET_NOT_FOUND: 'no secret of that name is kept (`flowbench secrets list`)',
  SECRET_MISSING: 'a flow reads {{secrets.name}}, and no secret of that name is set here; `data.names` lists each',
  CODE_ERROR: "a code node's code threw, or does not parse; the message names the line",
  CODE_TIMEOUT: "a code node's code ran longer than 10 s (a loop that never ends) and was stopped",
  FOR_EACH_NOT_A_LIST:
    'a node runs for each item of a list, and what its list reads is not one (or has over 1000 items)',
  HUMAN_INPUT_UNAVAILABLE:
    'an ask node needs a person to answer, and nothing where the flow runs can ask one (an MCP client without elicitation or that answered with an error, a task, a run with no terminal)',
  HUMAN_INPUT_DECLINED: 'the person an ask node asked declined or dismissed the question',
  HUMAN_INPUT_INVALID:
    "the answer to an ask node's question does not fit its fields, or a client's answer is no elicitation result; `data.problems` lists each",
  CANCELLED: 'the run was cancelled',
  RUN_INTERRUPTED:
    'the Flowbench process running the run stopped before it ended (closed by its MCP client, killed, crashed, or the computer restarted); the steps it finished are kept',
  RUN_TIMEOUT: 'the whole run took longer than its time limit',
  STOPPED: 'a stop node ended the run; the message is its reason',
  // Unexpected failures: a bug or the environment.
  DATABASE_BUSY:
    'another process held the database write lock longer than Flowbench waits for it, or runs asked for (a run, a list, a delete) have records not written yet; try again',
  DATABASE_ERROR: 'SQLite reported an error',
  HOST_UNREACHABLE: 'the editor could not reach Flowbench (the app or `flowbench serve` stopped)',
  PORT_UNAVAILABLE: '`flowbench serve` could not listen on its port: another program has it, or it needs privileges',
  INTERNAL_ERROR: 'an unexpected error; please report it',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes that mean "the user can fix this", as opposed to a bug or the environment. */
const USER_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'USAGE_ERROR',
  'VALIDATION_ERROR',
  'SECRET_MISSING',
  'SECRET_NOT_FOUND',
  'INVALID_JSON',
  'UNSUPPORTED_FORMAT',
  'FILE_NOT_FOUND',
  'FILE_NOT_WRITABLE',
  'FILE_TOO_LARGE',
  'FLOW_NOT_FOUND',
  'AMBIGUOUS_FLOW',
  'DUPLICATE_TOOL_NAME',
  'EDIT_CONFLICT',
  'SESSION_INVALID',
  'CIRCULAR_DEPENDENCY',
  'INVALID_YAML',
  'NOT_A_DATABASE',
  'DATABASE_TOO_NEW',
  'MISSING_VARIABLES',
  'RUN_NOT_FOUND',
  'RESULT_EXPIRED',
  'NODE_NOT_FOUND',
  'REUSE_UNAVAILABLE',
  'TESTS_FAILED',
  'PROVIDER_NOT_FOUND',
  'NO_PROVIDER',
  'MODEL_NOT_SET',
  'SERVER_NOT_FOUND',
  'AGENT_NOT_FOUND',
  'CHANNEL_NOT_FOUND',
  'CLIENT_CONFIG_INVALID',
  'SECRET_UNAVAILABLE',
  'AGENT_NOT_REVIEWED',
  'SUBFLOW_CYCLE',
  'PORT_UNAVAILABLE',
]);

/** True when the code means the caller can fix the input (the code survives where the class does not). */
export function isUserErrorCode(code: ErrorCode): boolean {
  return USER_ERROR_CODES.has(code);
}

/** Codes of node failures worth another attempt: the same call may well succeed later. */
export const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'NODE_TIMEOUT',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_RATE_LIMITED',
  'SERVER_UNAVAILABLE',
  'TOOL_TIMEOUT',
  'HTTP_UNREACHABLE',
]);

/** True for timeouts, 429, 5xx and network failures; false for everything a retry cannot fix. */
export function isRetryable(error: FlowbenchError): boolean {
  if (RETRYABLE_CODES.has(error.code)) return true;
  const status = error.data?.status;
  if (typeof status !== 'number') return false;
  if (error.code === 'HTTP_STATUS') return status === 429 || status >= 500;
  return error.code === 'PROVIDER_ERROR' && status >= 500;
}

export class FlowbenchError extends Error {
  override readonly name = 'FlowbenchError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get isUserError(): boolean {
    return isUserErrorCode(this.code);
  }

  /** The plain shape that crosses process boundaries. */
  toJSON(): SerializedError {
    return { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) };
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

/** Failures that say nothing about the request: the same request may well succeed later. */
export function isTransient(error: FlowbenchError): boolean {
  return error.code === 'DATABASE_BUSY' || error.code === 'HOST_UNREACHABLE';
}

/**
 * Wraps anything thrown into a FlowbenchError, keeping the original as the
 * cause. SQLite's errors keep their meaning: a lock held too long is
 * DATABASE_BUSY (worth retrying), the rest DATABASE_ERROR.
 */
export function toFlowbenchError(error: unknown): FlowbenchError {
  if (error instanceof FlowbenchError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    const isBusy = /^SQLITE_(BUSY|LOCKED)/.test(code);
    return new FlowbenchError(
      isBusy ? 'DATABASE_BUSY' : 'DATABASE_ERROR',
      isBusy ? `the database is locked by another process: ${message}` : message,
      { sqliteCode: code },
      { cause: error },
    );
  }
  return new FlowbenchError('INTERNAL_ERROR', message, undefined, { cause: error });
}
