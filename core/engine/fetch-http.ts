import { isUtf8 } from 'node:buffer';
import { certificateFailure } from '../model/certificates';
import { dataUrl } from '../model/data-urls';
import { FlowbenchError } from '../model/errors';
import { MAX_HTTP_RESPONSE_BYTES, type HttpForm, type HttpPort, type HttpRequestSpec } from '../model/http';

/** The request as fetch takes it; HTTP_REQUEST_INVALID for a URL or a header fetch would refuse. */
function prepare(request: HttpRequestSpec): { url: URL; headers: Headers } {
  const { nodeId } = request;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new FlowbenchError('HTTP_REQUEST_INVALID', `node "${nodeId}": "${request.url}" is not a URL`, { nodeId });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FlowbenchError(
      'HTTP_REQUEST_INVALID',
      `node "${nodeId}": ${url.protocol} URLs are not called, only http: and https:`,
      { nodeId },
    );
  }
  const headers = new Headers();
  for (const { name, value } of request.headers) {
    try {
      headers.append(name, value);
    } catch {
      throw new FlowbenchError('HTTP_REQUEST_INVALID', `node "${nodeId}": header "${name}" cannot be sent as it is`, {
        nodeId,
      });
    }
  }
  return { url, headers };
}

/** Media types that are text: JSON, XML (SVG too), YAML, scripts, forms, and their `+json` kin. */
const TEXT_TYPE =
  /^text\/|[/+](json|xml|yaml|x-yaml|javascript|ecmascript|x-www-form-urlencoded|csv|graphql)$|^application\/(x-)?ndjson$/;
/** Media types that are bytes, whatever they happen to decode as. */
const BINARY_TYPE =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|wasm|x-protobuf|protobuf)$/;

/**
 * The body as text, refused past MAX_HTTP_RESPONSE_BYTES without reading the
 * rest. One that is no text (an image, a PDF, bytes that are no UTF-8 under a
 * type that does not say text) is a `data:` URL of its type, base64 (n8n's autodetected binary
 * response): read as UTF-8 it would be mangled for good, unsaid.
 */
async function readBody(nodeId: string, response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_HTTP_RESPONSE_BYTES) {
      await reader.cancel();
      throw new FlowbenchError(
        'HTTP_RESPONSE_TOO_LARGE',
        `node "${nodeId}": the response is over ${MAX_HTTP_RESPONSE_BYTES / 1024 / 1024} MB`,
        { nodeId },
      );
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks);
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  // Text as before; a type neither list knows is read by its bytes.
  if (TEXT_TYPE.test(type) || (!BINARY_TYPE.test(type) && isUtf8(bytes))) return bytes.toString('utf8');
  return dataUrl(type || 'application/octet-stream', bytes.toString('base64'));
}

/**
 * A form as fetch sends it: URL-encoded as a browser's form posts it (a space
 * as +), or multipart with the boundary fetch makes and names in the
 * Content-Type it sets; either way that header is fetch's.
 */
function formBody(form: HttpForm): URLSearchParams | FormData {
  if (!form.multipart)
    return new URLSearchParams(form.fields.map(({ name, value }): [string, string] => [name, value]));
  const data = new FormData();
  for (const { name, value } of form.fields) data.append(name, value);
  return data;
}

/** HTTP request nodes' calls through Node's fetch, under the node's signal (its time limit, the run's cancellation). */
export const fetchHttp: HttpPort = {
  async send(request) {
    const { url, headers } = prepare(request);
    const signal = request.signal as AbortSignal;
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.form ? { body: formBody(request.form) } : request.body !== undefined ? { body: request.body } : {}),
        signal,
        redirect: 'follow',
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const certificate = certificateFailure(error);
      if (certificate) {
        throw new FlowbenchError(
          'HTTP_CERTIFICATE',
          `node "${request.nodeId}": ${request.method} ${url.href} was not called: ${certificate}`,
          { nodeId: request.nodeId },
        );
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new FlowbenchError(
        'HTTP_UNREACHABLE',
        `node "${request.nodeId}": ${request.method} ${url.href} could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
        { nodeId: request.nodeId },
      );
    }
    return {
      url: url.href,
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      body: await readBody(request.nodeId, response),
    };
  },
};
