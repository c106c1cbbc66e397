import { activeProxy } from './environment-proxy';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { ownEntry } from '../model/is-record';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NO_BODY = new Set([204, 205, 304]);

/** Lenient as fetch is (and curl): a body cut short at its end is decoded as far as it goes. */
const ZLIB_LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/**
 * A deflate body, zlib-wrapped as HTTP says (RFC 1950) or raw (RFC 1951), as
 * some servers send it: fetch tells the two apart by the first byte, whose low
 * four bits are 8 (the deflate method) in a zlib header.
 */
class Inflate extends Transform {
  private inner: Transform | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      if (chunk.length === 0) return callback();
      const inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate(ZLIB_LENIENT) : createInflateRaw(ZLIB_LENIENT);
      inner.on('data', (data: Buffer) => this.push(data));
      inner.once('error', (error) => this.destroy(error));
      this.inner = inner;
    }
    this.inner.write(chunk, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) return callback();
    this.inner.once('end', () => callback());
    this.inner.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}

/** The encodings fetch decodes, as it announces them in accept-encoding. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(ZLIB_LENIENT),
  'x-gzip': () => createGunzip(ZLIB_LENIENT),
  deflate: () => new Inflate(),
  br: () => createBrotliDecompress(BROTLI_LENIENT),
};

/** More codings than this fail the response, as fetch does: layers of compression as a resource attack. */
const MAX_CODINGS = 5;

/**
 * The decoders of a content-encoding list, last applied first; none when one
 * of them is not known (the body is then handed over as sent, as fetch does).
 */
function decodersFor(contentEncoding: string | null): Transform[] {
  const codings = contentEncoding ? contentEncoding.toLowerCase().split(',') : [];
  if (codings.length > MAX_CODINGS) {
    throw new TypeError('fetch failed', {
      cause: new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`),
    });
  }
  const makers = codings.reverse().map((coding) => ownEntry(DECODERS, coding.trim()));
  return makers.every((make) => make !== undefined) ? makers.map((make) => make()) : [];
}

/**
 * How long a connection may take to open, as Node's fetch allows (undici's
 * default): a host that drops the connection attempt fails as unreachable
 * instead of holding the node until its time limit, which then misnames it.
 * There is no limit on the server's silence once connected (fetch's is 300 s
 * before the headers and between pieces of the body): the node's time limit,
 * which the person sets, decides how long a model may take, and a slow local
 * model's long answer without streaming is silent until it is all written.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Ends a request whose connection does not open in time, with undici's error, as fetch's. */
function limitConnect(request: ClientRequest, url: URL, timeoutMs: number): void {
  request.once('socket', (socket) => {
    if (!socket.connecting) return; // a kept-alive connection, open already
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const timer = setTimeout(() => {
      const message = `Connect Timeout Error (attempted address: ${url.hostname}:${port}, timeout: ${timeoutMs}ms)`;
      request.destroy(
        Object.assign(new Error(message), { name: 'ConnectTimeoutError', code: 'UND_ERR_CONNECT_TIMEOUT' }),
      );
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    // Over HTTPS the connection is open once the TLS handshake is done, as undici counts it.
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', clear);
    request.once('close', clear);
  });
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

let requestSent = false;
let markRequestSent: () => void = () => undefined;
/**
 * Resolves once this process's first request through httpFetch has been
 * written to its socket (all of it handed to the operating system): from
 * then on the process waits for the answer.
 */
export const firstRequestSent = new Promise<void>((resolve) => {
  markRequestSent = () => {
    requestSent = true;
    resolve();
  };
});

/**
 * `fetch` for the model providers, over node:http. Node's own fetch (undici)
 * builds its HTTP parser (WebAssembly) and runs much code for the first time
 * on a process's first request: in a new process that request reached a
 * local server 22–27 ms after the call here, node:http's 5 ms; a 3×3 flow's
 * first wave, run by `flowbench run`, ends about 4 ms sooner, and warm model
 * calls cost less too (see the note of the commit that added it).
 *
 * It answers as fetch does for what the AI SDK sends: a URL, a method,
 * headers, a text or bytes body, a signal. The Response has the status, the
 * headers and the body as a web stream, decompressed as fetch does; a failed
 * connection rejects with fetch's TypeError('fetch failed') and the cause (the
 * AI SDK reads that as "cannot connect"), an abort with the signal's reason,
 * and a connection must open within fetch's time (CONNECT_TIMEOUT_MS).
 * Anything else (a Request object, a stream or form body, another protocol,
 * any request while a proxy is set: environment-proxy.ts) is Node's fetch's, and so is every redirect: the request is sent again
 * through it, which follows the redirect as the fetch standard says (and drops
 * the API key's header when the redirect leaves the origin).
 */
export function createHttpFetch(connectTimeoutMs = CONNECT_TIMEOUT_MS): Fetch {
  return async function httpFetch(input, init = {}) {
    const { body } = init;
    const url = input instanceof Request ? undefined : new URL(input);
    const isPlain =
      url !== undefined &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array);
    // Through a proxy, the request is Node's fetch's: its dispatcher knows the proxy and NO_PROXY.
    if (!isPlain || activeProxy()) return fetch(input, init);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const headers = new Headers(init.headers);
    if (!headers.has('accept')) headers.set('accept', '*/*');
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
    const bytes = typeof body === 'string' ? Buffer.from(body) : (body ?? undefined);
    if (bytes) headers.set('content-length', String(bytes.byteLength));

    const message = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(
        url,
        { method: init.method ?? 'GET', headers: Object.fromEntries(headers), signal },
        resolve,
      );
      // An abort rejects with the signal's own reason, whatever it is, as fetch does.
      request.once('error', (error) =>
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })),
      );
      limitConnect(request, url, connectTimeoutMs);
      if (!requestSent) request.once('finish', markRequestSent);
      request.end(bytes);
    });
    if (REDIRECTS.has(message.statusCode ?? 0) && init.redirect !== 'manual') {
      message.resume();
      return fetch(input, init);
    }
    return toResponse(message, url, signal);
  };
}

/** `fetch` for the model providers (see createHttpFetch). */
export const httpFetch = createHttpFetch();

/**
 * Loads Node's fetch classes (Headers, Response) that the first call builds
 * its answer with: they are Node's bundled undici, loaded on first use, and
 * that took 32–36 ms here, paid inside the first model call of a process.
 * Called where the model library loads (model-library.ts), ahead of that call.
 */
export function loadFetchClasses(): void {
  new Response('');
}

/** A web Response over node:http's answer; the body decoded and ended by an abort as fetch's is. */
function toResponse(message: IncomingMessage, url: URL, signal: AbortSignal | undefined): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  let body: Readable | null = message;
  if (NO_BODY.has(status)) {
    message.resume();
    body = null;
  } else {
    let decoders: Transform[];
    try {
      decoders = decodersFor(headers.get('content-encoding'));
    } catch (error) {
      message.destroy();
      throw error;
    }
    // pipeline ends the decoders with the socket's error, as fetch's body does.
    if (decoders.length > 0) {
      pipeline([message, ...decoders], () => undefined);
      body = decoders[decoders.length - 1] as Transform;
    }
    if (signal) {
      const stream = body;
      const onAbort = () => stream.destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', onAbort));
    }
  }
  const response = new Response(body && (Readable.toWeb(body) as ReadableStream<Uint8Array>), {
    status,
    statusText: message.statusMessage ?? '',
    headers,
  });
  // fetch's Response says where it came from; a constructed one cannot, so it is set here.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
