import { isUserErrorCode, type ErrorCode } from '../model/errors';

/**
 * The HTTP status `flowbench serve`'s API answers a failed call with. The body
 * still carries the code and message; the status lets a script, `curl -f` or
 * a proxy's log tell a refused request from a done one without reading it.
 */
const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  SESSION_INVALID: 401,
  FILE_NOT_FOUND: 404,
  FLOW_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  NODE_NOT_FOUND: 404,
  PROVIDER_NOT_FOUND: 404,
  SERVER_NOT_FOUND: 404,
  CHANNEL_NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  AMBIGUOUS_FLOW: 409,
  DUPLICATE_TOOL_NAME: 409,
  EDIT_CONFLICT: 409,
  RESULT_EXPIRED: 410,
  FILE_TOO_LARGE: 413,
  // Something this machine runs or reaches failed, not Flowbench itself.
  PROVIDER_UNAVAILABLE: 502,
  PROVIDER_RATE_LIMITED: 502,
  PROVIDER_AUTH_FAILED: 502,
  PROVIDER_ERROR: 502,
  SERVER_UNAVAILABLE: 502,
  TOOL_ERROR: 502,
  DATABASE_BUSY: 503,
  NODE_TIMEOUT: 504,
  TOOL_TIMEOUT: 504,
};

/** 400 for any other mistake the caller can fix, 500 for the rest (a bug or the environment). */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS_OF[code] ?? (isUserErrorCode(code) ? 400 : 500);
}
