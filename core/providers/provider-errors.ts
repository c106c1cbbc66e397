import { APICallError, RetryError } from 'ai';
import { FlowbenchError } from '../model/errors';

/** Turns what the AI SDK throws into Flowbench's error codes, naming the provider and URL. */
export function providerError(error: unknown, provider: string, url: string): FlowbenchError {
  if (error instanceof FlowbenchError) return error;
  if (RetryError.isInstance(error)) return providerError(error.lastError, provider, url);
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
