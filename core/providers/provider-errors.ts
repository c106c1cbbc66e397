import { APICallError, RetryError } from 'ai';
import { FlowbenchError } from '../model/errors';

/** The text with every secret (an API key a provider echoed back) replaced; short strings are no secrets. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) if (secret && secret.length >= 8) result = result.split(secret).join('[redacted]');
  return result;
}

/**
 * Turns what the AI SDK throws into Flowbench's error codes, naming the
 * provider and URL. `secrets` (the API key) never appear in the message: it
 * is stored with the run and shown in the editor.
 */
export function providerError(
  error: unknown,
  provider: string,
  url: string,
  secrets: readonly (string | undefined)[] = [],
): FlowbenchError {
  if (error instanceof FlowbenchError) return error;
  if (RetryError.isInstance(error)) return providerError(error.lastError, provider, url, secrets);
  const failure = describeFailure(error, provider, url);
  const message = redact(failure.message, secrets);
  return message === failure.message
    ? failure
    : new FlowbenchError(failure.code, message, failure.data, { cause: failure.cause });
}

function describeFailure(error: unknown, provider: string, url: string): FlowbenchError {
  const data = { provider, url };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = (error.responseBody ?? error.message).slice(0, 500);
    if (status === undefined) {
      const reason = error.message.replace(/^Cannot connect to API: /, '');
      return new FlowbenchError(
        'PROVIDER_UNAVAILABLE',
        `cannot reach provider "${provider}" at ${url}: ${reason}`,
        data,
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
      return new FlowbenchError(
        'PROVIDER_AUTH_FAILED',
        `provider "${provider}" refused the API key (${status}): ${detail}`,
        { ...data, status },
        { cause: error },
      );
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
