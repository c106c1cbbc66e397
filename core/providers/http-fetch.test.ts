import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, globalAgent } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, createDeflateRaw, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, createHttpFetch, httpFetch } from './http-fetch';

const ANSWER = JSON.stringify({ choices: [{ message: { content: 'otters hold hands' } }] });
const ENCODE: Record<string, (data: Buffer) => Buffer> = {
  gzip: (data) => gzipSync(data),
  deflate: (data) => deflateSync(data),
  br: (data) => brotliCompressSync(data),
};

/** What the server saw of each request, for the tests to compare. */
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = req.url ?? '/';
  seen.push({ method: req.method ?? '', url: path, headers: req.headers, body });
  if (path.startsWith('/encoded/')) {
    // A list is applied in its order (the last one outermost); a coding not in ENCODE leaves the bytes as they are.
    const encoding = decodeURIComponent(path.slice('/encoded/'.length));
    const bytes = encoding
      .split(',')
      .reduce<Buffer>((data, coding) => ENCODE[coding.trim()]?.(data) ?? data, Buffer.from(ANSWER));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
    res.end(bytes);
  } else if (path === '/gzip-without-trailer') {
    // The checksum and length a gzip body ends with, missing (a proxy that cut the body short).
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(ANSWER).subarray(0, -8));
  } else if (path === '/raw-deflate') {
    // Deflate without its zlib wrapper, as some servers send it.
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    res.end(deflateRawSync(ANSWER));
  } else if (path === '/deflate-without-end') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    res.end(deflateSync(ANSWER).subarray(0, -4));
  } else if (path === '/bad-deflate') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    res.end(Buffer.from('this is not deflate at all, nor zlib'));
  } else if (path === '/moved') {
    res.writeHead(307, { location: '/echo' }).end();
  } else if (path === '/empty') {
    res.writeHead(204).end();
  } else if (path === '/slow-headers') {
    setTimeout(() => res.writeHead(200).end('late'), 5_000).unref();
  } else if (path === '/slow-raw-deflate-body') {
    // A raw deflate stream that sends its first event, flushed, then nothing more.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'deflate' });
    const deflate = createDeflateRaw();
    deflate.pipe(res);
    deflate.write('data: first\n\n');
    deflate.flush();
  } else if (path === '/slow-body') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
  } else {
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r-1' });
    res.end(JSON.stringify({ method: req.method, body }));
  }
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const post = {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
  body: '{"a":1}',
};

describe('httpFetch', () => {
  it("answers a POST as Node's fetch does: status, status text, headers, body and URL", async () => {
    const ours = await httpFetch(`${base}/echo`, post);
    const theirs = await fetch(`${base}/echo`, post);
    for (const response of [ours, theirs]) {
      expect(response.status).toBe(201);
      expect(response.statusText).toBe('Made');
      expect(response.ok).toBe(true);
      expect(response.url).toBe(`${base}/echo`);
      expect(response.headers.get('x-request-id')).toBe('r-1');
      expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
    }
    const [mine, node] = seen.slice(-2);
    expect(mine!.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer k',
      'content-length': '7',
      accept: '*/*',
    });
    expect(mine!.headers['accept-encoding']).toContain('gzip');
    expect(node!.body).toBe(mine!.body);
  });

  it.each(Object.keys(ENCODE))('decodes a %s body, as fetch does', async (encoding) => {
    const response = await httpFetch(`${base}/encoded/${encoding}`);
    expect(response.headers.get('content-encoding')).toBe(encoding);
    expect(await response.text()).toBe(ANSWER);
  });

  it('decodes stacked codings last first, and hands over a body in a coding it does not know as sent, as fetch does', async () => {
    // `constructor` is unknown too, not the function every object inherits under that name.
    for (const encoding of ['gzip, br', 'deflate,gzip', 'br, x-unknown', 'br, constructor']) {
      const path = `${base}/encoded/${encodeURIComponent(encoding)}`;
      const [ours, theirs] = [await (await httpFetch(path)).arrayBuffer(), await (await fetch(path)).arrayBuffer()];
      expect(Buffer.from(ours)).toEqual(Buffer.from(theirs));
    }
    expect(await (await httpFetch(`${base}/encoded/${encodeURIComponent('gzip, br')}`)).text()).toBe(ANSWER);
    // Compressed, then sent under a coding nobody knows: the bytes as sent, not a guess.
    const raw = Buffer.from(
      await (await httpFetch(`${base}/encoded/${encodeURIComponent('br, x-unknown')}`)).arrayBuffer(),
    );
    expect(raw).toEqual(brotliCompressSync(ANSWER));
  });

  it('decodes a gzip body cut short before its trailer as far as it goes, as fetch does', async () => {
    expect(await (await fetch(`${base}/gzip-without-trailer`)).text()).toBe(ANSWER);
    expect(await (await httpFetch(`${base}/gzip-without-trailer`)).text()).toBe(ANSWER);
  });

  it('decodes deflate without its zlib wrapper, or cut short before its checksum, as fetch does', async () => {
    for (const path of ['/raw-deflate', '/deflate-without-end']) {
      expect(await (await fetch(`${base}${path}`)).text()).toBe(ANSWER);
      expect(await (await httpFetch(`${base}${path}`)).text()).toBe(ANSWER);
    }
  });

  it('fails reading a body that is not the deflate it says it is, as fetch does, naming why', async () => {
    const failure = (response: Response) =>
      response.text().then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    const [ours, theirs] = [
      await failure(await httpFetch(`${base}/bad-deflate`)),
      await failure(await fetch(`${base}/bad-deflate`)),
    ];
    // fetch says "terminated", with zlib's error as the cause; the error here is zlib's own.
    expect(theirs?.message).toBe('terminated');
    expect(ours).toMatchObject({ code: 'Z_DATA_ERROR', message: (theirs?.cause as Error).message });
  });

  it('refuses more than five codings, as fetch does', async () => {
    const path = `${base}/encoded/${encodeURIComponent('gzip,gzip,gzip,gzip,gzip,gzip')}`;
    await expect(fetch(path)).rejects.toThrow('fetch failed');
    const failure = await httpFetch(path).then(
      () => undefined,
      (error: unknown) => error as TypeError,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure?.message).toBe('fetch failed');
    expect((failure?.cause as Error).message).toBe('too many content-encodings in response: 6, maximum allowed is 5');
  });

  it("follows a redirect through Node's fetch, the body sent again, unless told not to", async () => {
    const response = await httpFetch(`${base}/moved`, post);
    expect(response.status).toBe(201);
    expect(response.url).toBe(`${base}/echo`);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });

    const manual = await httpFetch(`${base}/moved`, { ...post, redirect: 'manual' });
    expect(manual.status).toBe(307);
    expect(manual.headers.get('location')).toBe('/echo');
  });

  it('gives no body for a 204', async () => {
    const response = await httpFetch(`${base}/empty`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("fails a refused connection with fetch's TypeError and the cause the AI SDK reads", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const failure: unknown = await httpFetch(`http://127.0.0.1:${port}/v1/chat/completions`, post).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it("ends with the signal's reason when aborted before the headers, or while the body streams", async () => {
    const early = new AbortController();
    const waiting = httpFetch(`${base}/slow-headers`, { signal: early.signal });
    setTimeout(() => early.abort(new Error('run cancelled')), 50);
    await expect(waiting).rejects.toThrow('run cancelled');
    await expect(httpFetch(`${base}/echo`, { signal: early.signal })).rejects.toThrow('run cancelled');

    const late = new AbortController();
    const response = await httpFetch(`${base}/slow-body`, { signal: late.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    late.abort(new Error('node timed out'));
    await expect(reader.read()).rejects.toThrow('node timed out');

    // The same through the decoder of a raw deflate body.
    const inflating = new AbortController();
    const deflated = await httpFetch(`${base}/slow-raw-deflate-body`, { signal: inflating.signal });
    const inflated = deflated.body!.getReader();
    expect(new TextDecoder().decode((await inflated.read()).value)).toBe('data: first\n\n');
    inflating.abort(new Error('run cancelled'));
    await expect(inflated.read()).rejects.toThrow('run cancelled');
  });

  it("fails a connection that does not open within fetch's time limit, as fetch does", async () => {
    expect(CONNECT_TIMEOUT_MS).toBe(10_000); // undici's
    // A server whose process is stuck: the kernel queues two connections for it, then drops what comes next.
    const stuck = spawn(
      process.execPath,
      [
        '-e',
        "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { console.log(this.address().port); setTimeout(() => { for (;;); }, 20); })",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const queued: Socket[] = [];
    try {
      const port = await new Promise<number>((resolve) =>
        stuck.stdout.once('data', (d: Buffer) => resolve(Number(String(d)))),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 2; i++) {
        const socket = connect(port, '127.0.0.1');
        queued.push(socket);
        await new Promise((resolve) => socket.once('connect', resolve));
      }
      const quick = createHttpFetch(200);
      const started = performance.now();
      const failure: unknown = await quick(`http://127.0.0.1:${port}/v1/chat/completions`, {
        ...post,
        // Without the limit, the call would wait for this instead.
        signal: AbortSignal.timeout(3_000),
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TypeError);
      expect(failure).toMatchObject({
        message: 'fetch failed',
        cause: {
          name: 'ConnectTimeoutError',
          code: 'UND_ERR_CONNECT_TIMEOUT',
          message: `Connect Timeout Error (attempted address: 127.0.0.1:${port}, timeout: 200ms)`,
        },
      });
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      for (const socket of queued) socket.destroy();
      stuck.kill('SIGKILL');
    }
  });

  it('fails an HTTPS connection whose TLS handshake never ends within the same limit', async () => {
    // Takes the connection and never answers the handshake.
    const silent = createNetServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = performance.now();
      const failure: unknown = await createHttpFetch(200)(`https://127.0.0.1:${port}/v1/chat/completions`, {
        ...post,
        // Without the limit, the call would wait for this instead.
        signal: AbortSignal.timeout(3_000),
      }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TypeError);
      expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'UND_ERR_CONNECT_TIMEOUT' } });
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      silent.close();
    }
  });

  it("hands what it does not send itself to Node's fetch: a Request object", async () => {
    const response = await httpFetch(new Request(`${base}/echo`, post));
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('speaks HTTPS as model providers are reached, and refuses a certificate nobody trusts, as fetch does', async () => {
    const tls = join(import.meta.dirname, '../../tests/fixtures/tls');
    const cert = readFileSync(join(tls, 'localhost.crt'));
    const secure = createHttpsServer({ cert, key: readFileSync(join(tls, 'localhost.key')) }, (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => answer(req, res, body));
    });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
    try {
      // Nothing trusts the test certificate yet: the connection fails as an untrusted provider's would.
      const refused: unknown = await httpFetch(`${url}/echo`, post).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TypeError);
      expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });

      // Trusted (as NODE_EXTRA_CA_CERTS would make it), it answers as over HTTP, compressed bodies included.
      globalAgent.options.ca = cert;
      const response = await httpFetch(`${url}/echo`, post);
      expect(response.status).toBe(201);
      expect(response.url).toBe(`${url}/echo`);
      expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
      expect(await (await httpFetch(`${url}/encoded/gzip`)).text()).toBe(ANSWER);
    } finally {
      delete globalAgent.options.ca;
      globalAgent.destroy();
      secure.closeAllConnections();
      secure.close();
    }
  });
});
