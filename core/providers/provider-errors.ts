import { APICallError, JSONParseError, RetryError, TypeValidationError } from 'ai';
import { certificateFailure } from '../model/certificates';
import { FlowbenchError } from '../model/errors';
import { redact, refusedKey, type Provider } from './key-errors';

/**
 * Turns what the AI SDK throws into Flowbench's error codes, naming the
 * provider and URL. `secrets` (the API key) never appear in the message: it
 * is stored with the run and shown in the editor.
 */
export function providerError(
  error: unknown,
  provider: Provider,
  url: string,
  secrets: readonly (string | undefined)[] = [],
): FlowbenchError {
  if (error instanceof FlowbenchError) return error;
  if (RetryError.isInstance(error)) return providerError(error.lastError, provider, url, secrets);
  const failure = describeFailure(error, provider, url, secrets.some(Boolean));
  const message = redact(failure.message, secrets);
  return message === failure.message
    ? failure
    : new FlowbenchError(failure.code, message, failure.data, { cause: failure.cause });
}

function describeFailure(
  error: unknown,
  { name: provider, kind }: Provider,
  url: string,
  keySent: boolean,
): FlowbenchError {
  const data = { provider, url };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = (error.responseBody ?? error.message).slice(0, 500);
    if (status === undefined) {
      const reason = certificateFailure(error) ?? error.message.replace(/^Cannot connect to API: /, '');
      return new FlowbenchError(
        'PROVIDER_UNAVAILABLE',
        `cannot reach provider "${provider}" at ${url}: ${reason}`,
        data,
        { cause: error },
      );
    }
    if (status !== undefined && status < 300) {
      return new FlowbenchError(
        'PROVIDER_ERROR',
        `provider "${provider}" answered ${status}, ${unreadable(error)}`,
        { ...data, status },
        { cause: error },
      );
    }
    if (status === 429) {
      return new FlowbenchError(
        'PROVIDER_RATE_LIMITED',
        `provider "${provider}" is rate limiting (429): ${detail}`,
        { ...data, status },
        { cause: error },
      );
    }
    if (status === 401 || status === 403) {
      const refused = refusedKey({ name: provider, kind }, url, status, keySent);
      return new FlowbenchError(refused.code, `${refused.message}. It said: ${detail}`, refused.data, { cause: error });
    }
    return new FlowbenchError(
      'PROVIDER_ERROR',
      `provider "${provider}" answered ${status}: ${detail}`,
      { ...data, status },
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new FlowbenchError('PROVIDER_ERROR', `provider "${provider}" failed: ${message}`, data, { cause: error });
}

/**
 * Why a successful status came with no answer (the AI SDK says only "Failed to
 * process successful response"): the body broke off, or is not what the API
 * returns.
 */
function unreadable(error: APICallError): string {
  const cause = error.cause;
  const body = error.responseBody?.slice(0, 300);
  if (JSONParseError.isInstance(cause)) return `and its answer is not JSON: ${body ?? cause.text.slice(0, 300)}`;
  if (TypeValidationError.isInstance(cause)) return `and its answer is not in the API's format: ${body ?? ''}`;
  const reason = cause instanceof Error ? cause.message : error.message;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return `then reading its answer failed: ${reason}${typeof code === 'string' ? ` (${code})` : ''}`;
}
