import { isRecord } from '../model/is-record';

/**
 * The model ids of a provider's answer to `GET …/models` (OpenAI's and
 * Anthropic's shape: `{ "data": [{ "id": … }, …] }`), or undefined when the
 * answer is no such list. An entry without a text id is left out.
 */
export function modelIdsOf(text: string): string[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  return body.data.flatMap((model) => (isRecord(model) && typeof model.id === 'string' ? [model.id] : []));
}

/**
 * What came instead of a model list, in words: the address of a web app
 * (Open WebUI, a dashboard) or of a server's own API instead of its
 * OpenAI-compatible one is the usual cause.
 */
export function notAModelList(contentType: string | null, text: string): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() || '';
  if (type === 'text/html') return 'a web page (text/html)';
  try {
    JSON.parse(text);
    return 'JSON with no "data" list';
  } catch {
    return `${type || 'a body'} that is not JSON`;
  }
}
