import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFlow } from '../../engine/run-flow';
import { FlowSchema, type FlowInput } from '../../model/flow';
import type { LlmPort } from '../../model/llm';
import type { RunEvent } from '../../model/run';
import { validateFlow } from '../../model/validate';
import { publishWarnings } from '../../model/publish-warnings';
import { nodeRegistry } from '../registry';
import { buildFlow, input, output } from '../../../tests/helpers/flow-builder';
import { closedPort } from '../../../tests/helpers/openai-server';

/** A real HTTP server on 127.0.0.1 that records each request and answers as `answer` says. */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base: string;
let received: Received[];
let answer: (request: Received) => { status?: number; type?: string; body: string | Buffer };

beforeEach(async () => {
  received = [];
  answer = () => ({ type: 'application/json', body: '{"ok":true}' });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(request);
      const { status = 200, type = 'text/plain', body } = answer(request);
      res.writeHead(status, { 'content-type': type, 'x-served-by': 'test' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** input (city) → call (an HTTP request node) → result. */
const callFlow = (config: Record<string, unknown>, extra: Partial<FlowInput['nodes'][number]> = {}): FlowInput =>
  buildFlow({
    parameters: [{ name: 'city', type: 'string' }],
    nodes: [input(), { id: 'call', type: 'http', config, ...extra }, output('{{nodes.call.output}}')],
    edges: ['input>call', 'call>result'],
  });

async function run(
  flow: FlowInput,
  inputs: Record<string, unknown> = { city: 'Oslo' },
  secrets?: Record<string, string>,
) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    flow: FlowSchema.parse(flow),
    inputs,
    ...(secrets ? { secrets: { read: (name: string) => secrets[name] } } : {}),
    llm: {} as LlmPort,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    listeners: [(e) => events.push(e)],
  });
  const step = events.find(
    (e): e is Extract<RunEvent, { type: 'node.finished' }> => e.type === 'node.finished' && e.nodeId === 'call',
  );
  const failed = events.filter(
    (e): e is Extract<RunEvent, { type: 'node.failed' }> => e.type === 'node.failed' && e.nodeId === 'call',
  );
  return { result, step, failed, events };
}

describe('an HTTP request node', () => {
  it('GETs its templated URL with its headers; a JSON answer is the output as JSON; secret header values are kept as •••', async () => {
    answer = (r) => ({ type: 'application/json; charset=utf-8', body: JSON.stringify({ city: r.url, temp: 4 }) });
    const { result, step } = await run(
      callFlow({
        url: `${base}/weather?q={{inputs.city}}`,
        headers: [
          { name: 'Accept', value: 'application/json' },
          { name: 'Authorization', value: 'Bearer sk-secret' },
        ],
      }),
    );
    expect(result.status).toBe('succeeded');
    expect(step?.output).toEqual({ city: '/weather?q=Oslo', temp: 4 });
    expect(received[0]).toMatchObject({
      method: 'GET',
      headers: { accept: 'application/json', authorization: 'Bearer sk-secret' },
    });
    expect(step?.input).toEqual({
      method: 'GET',
      url: `${base}/weather?q=Oslo`,
      headers: { Accept: 'application/json', Authorization: '•••' },
    });
    expect(JSON.stringify(step)).not.toContain('sk-secret');
  });

  it('POSTs a JSON body as application/json, text as text/plain, and gives the whole response when asked', async () => {
    answer = () => ({ status: 201, body: 'made' });
    const posted = await run(
      callFlow({ method: 'POST', url: `${base}/items`, body: '{"name": "{{inputs.city}}"}', output: 'response' }),
    );
    expect(received[0]).toMatchObject({
      method: 'POST',
      body: '{"name": "Oslo"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(posted.step?.output).toMatchObject({ status: 201, body: 'made', headers: { 'x-served-by': 'test' } });
    await run(callFlow({ method: 'PUT', url: `${base}/note`, body: 'hello {{inputs.city}}' }));
    expect(received[1]).toMatchObject({
      method: 'PUT',
      body: 'hello Oslo',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  });

  it('gives an image, or bytes that are no text, as a data: URL of their type; text of a type it does not know as text', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff]);
    answer = (r) =>
      r.url === '/logo.png'
        ? { type: 'image/png', body: png }
        : r.url === '/blob'
          ? { type: 'application/x-custom', body: Buffer.from([0xff, 0xfe, 0x00]) }
          : { type: 'application/vnd.custom', body: 'plain words, ünïcode' };
    const image = await run(callFlow({ url: `${base}/logo.png`, output: 'response' }));
    expect(image.step?.output).toMatchObject({ status: 200, body: `data:image/png;base64,${png.toString('base64')}` });
    expect(Buffer.from((image.step?.output as { body: string }).body.split(',')[1] as string, 'base64')).toEqual(png);
    expect((await run(callFlow({ url: `${base}/blob` }))).step?.output).toBe('data:application/x-custom;base64,//4A');
    expect((await run(callFlow({ url: `${base}/words` }))).step?.output).toBe('plain words, ünïcode');
  });

  it('fails HTTP_STATUS on a status that is not 2xx, retrying 5xx, or gives it as any answer when told not to fail', async () => {
    answer = () => ({ status: 404, body: 'no such city' });
    const missing = await run(callFlow({ url: `${base}/x` }, { maxAttempts: 3 }));
    expect(missing.result.error).toMatchObject({
      code: 'HTTP_STATUS',
      message: `node "call": GET ${base}/x answered 404 Not Found: no such city`,
    });
    // 404 is not retried; 503 is.
    expect(received).toHaveLength(1);
    answer = () => ({ status: 503, body: 'busy' });
    const busy = await run(callFlow({ url: `${base}/x` }, { maxAttempts: 3 }));
    expect(busy.failed.map((f) => f.willRetry)).toEqual([true, true, false]);
    expect(received).toHaveLength(4);
    const told = await run(callFlow({ url: `${base}/x`, failOnStatus: false, output: 'response' }));
    expect(told.step?.output).toMatchObject({ status: 503, body: 'busy' });
  });

  it('says what it cannot call: no URL, not http, nobody listening', async () => {
    expect((await run(callFlow({ url: 'file:///etc/passwd' }))).result.error).toMatchObject({
      code: 'HTTP_REQUEST_INVALID',
      message: 'node "call": file: URLs are not called, only http: and https:',
    });
    expect((await run(callFlow({ url: 'not a url {{inputs.city}}' }))).result.error).toMatchObject({
      code: 'HTTP_REQUEST_INVALID',
      message: 'node "call": "not a url Oslo" is not a URL',
    });
    const closed = await run(callFlow({ url: `http://127.0.0.1:${await closedPort()}/` }));
    expect(closed.result.error).toMatchObject({ code: 'HTTP_UNREACHABLE' });
    expect(closed.result.error?.message).toContain('ECONNREFUSED');
    const problems = validateFlow(callFlow({ url: '' }), { catalogue: nodeRegistry }).problems;
    expect(problems.map((p) => `${p.code} ${p.field}: ${p.message}`)).toContain(
      'NODE_SETUP config.url: node "call" write the URL this node calls',
    );
  });

  it('adds its query parameters to the URL, URL-encoded: a value with &, # or a space arrives as it was written', async () => {
    answer = (r) => ({ type: 'application/json', body: JSON.stringify({ got: r.url }) });
    const query = [
      { name: 'q', value: '{{inputs.city}}' },
      { name: 'note', value: 'a&b=c #1' },
    ];
    const { step } = await run(callFlow({ url: `${base}/search?lang=en#top`, query }), { city: 'Saint-Émilion & Co' });
    const sent = new URL(received[0]!.url, base);
    expect([...sent.searchParams]).toEqual([
      ['lang', 'en'],
      ['q', 'Saint-Émilion & Co'],
      ['note', 'a&b=c #1'],
    ]);
    expect(step?.input).toMatchObject({
      url: `${base}/search?lang=en&q=Saint-%C3%89milion%20%26%20Co&note=a%26b%3Dc%20%231#top`,
    });
    // Written inside the URL's query, the same reference is sent as it is: said before a run.
    const problems = validateFlow(callFlow({ url: `${base}/search?q={{inputs.city}}` }), { catalogue: nodeRegistry });
    expect(problems.problems.filter((p) => p.code === 'HTTP_QUERY').map((p) => p.message)).toEqual([
      'node "call" its URL\'s query has {{inputs.city}}, sent as it is, not encoded: a value with &, # or a space changes the URL; put it under Query parameters, which encode it',
    ]);
    expect(validateFlow(callFlow({ url: `${base}/search`, query }), { catalogue: nodeRegistry }).problems).toEqual([]);
  });

  it('runs for each item of a list, one request per item', async () => {
    answer = (r) => ({ type: 'application/json', body: JSON.stringify({ got: r.url }) });
    const flow = buildFlow({
      parameters: [{ name: 'ids', type: 'array' }],
      nodes: [
        input(),
        { id: 'call', type: 'http', config: { url: `${base}/item/{{item}}` }, forEach: { items: '{{inputs.ids}}' } },
        output('{{nodes.call.output}}'),
      ],
      edges: ['input>call', 'call>result'],
    });
    const { step } = await run(flow, { ids: [1, 2, 3] });
    expect(step?.output).toEqual([{ got: '/item/1' }, { got: '/item/2' }, { got: '/item/3' }]);
  });
});

describe('an HTTP request node reading {{secrets.name}}', () => {
  const token = 'ghp_k3y-0f-the-person';
  const withSecret = () =>
    callFlow({
      method: 'POST',
      url: `${base}/repos?key={{secrets.github}}`,
      headers: [{ name: 'X-Client', value: 'Bearer {{secrets.github}}' }],
      body: '{"city": "{{inputs.city}}", "key": "{{secrets.github}}"}',
    });

  it('sends the value, and the run records and returns it only as •••', async () => {
    // The server answers with what it got, as many APIs echo a request back.
    answer = (r) => ({ type: 'application/json', body: JSON.stringify({ url: r.url, auth: r.headers['x-client'] }) });
    const { result, step, events } = await run(withSecret(), { city: 'Oslo' }, { github: token });
    expect(received[0]).toMatchObject({
      url: `/repos?key=${token}`,
      headers: expect.objectContaining({ 'x-client': `Bearer ${token}` }) as unknown,
      body: `{"city": "Oslo", "key": "${token}"}`,
    });
    expect(result.status).toBe('succeeded');
    expect(step?.input).toMatchObject({
      url: `${base}/repos?key=•••`,
      headers: { 'X-Client': 'Bearer •••' },
      body: '{"city": "Oslo", "key": "•••"}',
    });
    expect(step?.output).toEqual({ url: '/repos?key=•••', auth: 'Bearer •••' });
    expect(result.output).toEqual({
      kind: 'return_values',
      values: [{ id: 'r0', text: '{"url":"/repos?key=•••","auth":"Bearer •••"}' }],
    });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('sends Basic auth made from its user and password when it runs, a secret in either; the run shows •••', async () => {
    const flow = callFlow({
      url: `${base}/account`,
      auth: 'basic',
      basicUser: '{{inputs.city}}-bot',
      basicPassword: '{{secrets.twilio}}',
    });
    // The server echoes what it got, as many APIs do: the encoded credentials show as ••• too.
    answer = (r) => ({ type: 'application/json', body: JSON.stringify({ auth: r.headers.authorization }) });
    const { result, step, events } = await run(flow, { city: 'Zoë' }, { twilio: token });
    expect(result.status).toBe('succeeded');
    expect(step?.output).toEqual({ auth: 'Basic •••' });
    expect(received[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`Zoë-bot:${token}`).toString('base64')}`);
    expect(step?.input).toMatchObject({ headers: { Authorization: '•••' } });
    expect(JSON.stringify(events)).not.toContain(Buffer.from(`Zoë-bot:${token}`).toString('base64'));
    // Set to none, the user and password are kept but not sent.
    await run(callFlow({ url: `${base}/account`, auth: 'none', basicUser: 'a', basicPassword: 'b' }));
    expect(received[1]?.headers.authorization).toBeUndefined();
    // No user yet, or an Authorization header beside it, is a problem before a run.
    const problems = (config: Record<string, unknown>) =>
      validateFlow(callFlow({ url: `${base}/x`, auth: 'basic', ...config }), { catalogue: nodeRegistry }).problems.map(
        (p) => `${p.code} ${p.field}: ${p.message}`,
      );
    expect(problems({ basicUser: ' ' })).toContain(
      'NODE_SETUP config.basicUser: node "call" write the user Basic auth sends',
    );
    expect(problems({ basicUser: 'a', headers: [{ name: 'authorization', value: 'Bearer x' }] })).toContain(
      'NODE_SETUP config.headers.0.name: node "call" sends Basic auth and an Authorization header: keep one of them',
    );
  });

  it('warns of a password or token typed as it is, on its field, and not of one read from Secrets or an input', () => {
    const typed = (config: Record<string, unknown>) =>
      validateFlow(callFlow({ url: `${base}/x`, ...config }), { catalogue: nodeRegistry })
        .problems.filter((p) => p.code === 'TYPED_SECRET')
        .map((p) => `${p.severity} ${p.field}: ${p.message}`);
    expect(
      typed({
        auth: 'basic',
        basicUser: 'me',
        basicPassword: 'hunter2',
        headers: [
          { name: 'Authorization', value: 'Bearer sk-live-123' },
          { name: 'X-Api-Key', value: '{{secrets.maps}}' },
          { name: 'Accept', value: 'application/json' },
        ],
      }),
    ).toEqual([
      'warning config.basicPassword: node "call" its Basic auth password is typed as it is, so the flow and its exported file hold it: keep it on the Secrets page and write {{secrets.name}} here',
      'warning config.headers.0.value: node "call" its Authorization header\'s value is typed as it is, so the flow and its exported file hold it: keep it on the Secrets page and write {{secrets.name}} here',
    ]);
    expect(typed({ auth: 'basic', basicUser: 'me', basicPassword: '{{secrets.pw}}' })).toEqual([]);
    expect(typed({ headers: [{ name: 'X-Token', value: '{{inputs.city}}' }] })).toEqual([]);
    // With Basic auth off, the password kept is not sent, and not warned of.
    expect(typed({ auth: 'none', basicUser: 'me', basicPassword: 'hunter2' })).toEqual([]);
    // Named like a key, holding none: a request's own id.
    expect(typed({ headers: [{ name: 'Idempotency-Key', value: 'order-42' }] })).toEqual([]);
  });

  it('posts form fields URL-encoded or as multipart form-data, each value filled in and encoded; the run records the fields', async () => {
    const fields = [
      { name: 'q', value: '{{inputs.city}}' },
      { name: 'tag', value: 'a' },
      { name: 'tag', value: 'b' },
      { name: 'client_secret', value: '{{secrets.app}}' },
    ];
    const city = 'Oslo & Bergen #1 + 50%';
    for (const bodyType of ['form', 'multipart'] as const) {
      received = [];
      const { result, step, events } = await run(
        callFlow({ method: 'POST', url: `${base}/token`, bodyType, form: fields, body: '' }),
        { city },
        { app: token },
      );
      expect(result.status).toBe('succeeded');
      const sent = received[0] as Received;
      // Read back by the platform's own form parser, as a server framework would.
      const parsed = await new Response(sent.body, {
        headers: { 'content-type': String(sent.headers['content-type']) },
      }).formData();
      const entries: [string, unknown][] = [];
      parsed.forEach((value, name) => entries.push([name, value]));
      expect(entries).toEqual([
        ['q', city],
        ['tag', 'a'],
        ['tag', 'b'],
        ['client_secret', token],
      ]);
      // As a browser's form posts it: a space as +, & # + % encoded.
      if (bodyType === 'form')
        expect(sent.body).toMatch(/^q=Oslo\+%26\+Bergen\+%231\+%2B\+50%25&tag=a&tag=b&client_secret=/);
      expect(sent.headers['content-type']).toMatch(
        bodyType === 'form' ? /^application\/x-www-form-urlencoded/ : /^multipart\/form-data; boundary=/,
      );
      expect(step?.input).toEqual({
        method: 'POST',
        url: `${base}/token`,
        headers: { 'Content-Type': bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'multipart/form-data' },
        form: { q: city, tag: ['a', 'b'], client_secret: '•••' },
      });
      expect(JSON.stringify(events)).not.toContain(token);
    }
  });

  it('refuses a Content-Type header beside a form body, and warns of a body it holds and does not send', () => {
    const problems = (config: Record<string, unknown>) =>
      validateFlow(callFlow({ url: `${base}/x`, ...config }), { catalogue: nodeRegistry })
        .problems.filter((p) => p.nodeId === 'call')
        .map((p) => `${p.code} ${p.severity} ${p.field}: ${p.message}`);
    const form = [{ name: 'q', value: '{{inputs.city}}' }];
    expect(
      problems({
        method: 'POST',
        bodyType: 'multipart',
        form,
        headers: [{ name: 'content-type', value: 'text/plain' }],
      }),
    ).toEqual([
      'NODE_SETUP error config.headers.0.name: node "call" sends a multipart form, which says its own Content-Type: remove this header',
    ]);
    expect(problems({ method: 'POST', bodyType: 'form', form: [{ name: ' ', value: 'x' }] })).toEqual([
      'NODE_SETUP error config.form.0.name: node "call" form field 1 has no name yet',
    ]);
    expect(problems({ method: 'GET', body: 'hello', form })).toEqual([
      'HTTP_BODY warning config.body: node "call" GET sends no body: this text is not sent',
      'HTTP_BODY warning config.form: node "call" GET sends no body: these form fields are not sent',
    ]);
    expect(problems({ method: 'POST', bodyType: 'form', body: 'hello', form })).toEqual([
      'HTTP_BODY warning config.body: node "call" the body type is a form: this text is not sent; choose JSON or text, or clear it',
    ]);
    expect(problems({ method: 'POST', body: 'hello', form })).toEqual([
      'HTTP_BODY warning config.form: node "call" the body type is JSON or text: these form fields are not sent; choose a form body type, or remove them',
    ]);
    expect(problems({ method: 'POST', bodyType: 'form', form })).toEqual([]);
    // A token endpoint's password typed into the form is a credential the flow would hold.
    expect(problems({ method: 'POST', bodyType: 'form', form: [{ name: 'password', value: 'hunter2' }] })).toEqual([
      'TYPED_SECRET warning config.form.0.value: node "call" its password form field\'s value is typed as it is, so the flow and its exported file hold it: keep it on the Secrets page and write {{secrets.name}} here',
    ]);
  });

  it("neither calls nor retries a URL whose certificate this machine does not trust: HTTP_CERTIFICATE says where a company's authority goes", async () => {
    const tls = join(import.meta.dirname, '../../../tests/fixtures/tls');
    let called = 0;
    const secure = createHttpsServer(
      { cert: readFileSync(join(tls, 'localhost.crt')), key: readFileSync(join(tls, 'localhost.key')) },
      (_req, res) => res.end(String(++called)),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/internal`;
    try {
      const { result, failed } = await run(callFlow({ url }, { maxAttempts: 3 }));
      expect(result.error).toEqual({
        code: 'HTTP_CERTIFICATE',
        nodeId: 'call',
        message: `node "call": GET ${url} was not called: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT); a company's own certificate authority goes in NODE_EXTRA_CA_CERTS, a PEM file read when Flowbench starts`,
      });
      // Not network trouble: one attempt, and the server was never asked anything.
      expect(failed).toHaveLength(1);
      expect(called).toBe(0);
    } finally {
      secure.close();
    }
  });

  it('a secret not set here stops the run before any request, naming each one', async () => {
    await expect(run(withSecret(), { city: 'Oslo' }, {})).rejects.toMatchObject({
      code: 'SECRET_MISSING',
      message:
        'flow "Test flow" reads {{secrets.github}}, which is not set here: set it on the Secrets page or with `flowbench secrets set <name>`',
    });
    await expect(run(withSecret())).rejects.toMatchObject({ code: 'SECRET_MISSING' });
    expect(received).toHaveLength(0);
  });

  it('is a problem anywhere but an HTTP request node, and with a path', () => {
    const flow = buildFlow({
      nodes: [
        input(),
        { id: 'say', type: 'template', config: { template: 'my key is {{secrets.github}}' } },
        { id: 'call', type: 'http', config: { url: `${base}/{{secrets.github.login}}` } },
        output('{{nodes.say.output}}'),
      ],
      edges: ['input>say', 'say>call', 'call>result'],
    });
    const problems = validateFlow(flow, { catalogue: nodeRegistry }).problems;
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.nodeId}: ${p.message}`)).toEqual([
      'SECRET_REFERENCE say: node "say" template: {{secrets.github}} — only an HTTP request node\'s URL, headers and body read secrets; here it would be sent to a model or a tool, or kept in the run\'s output',
      'UNRESOLVED_REFERENCE call: node "call" url: {{secrets.github.login}} — a secret is text, with nothing inside it: write {{secrets.github}}',
    ]);
  });

  it('warns before publishing when a client could choose where the secret goes', () => {
    const urlFromInput = (headers: { name: string; value: string }[], query: { name: string; value: string }[] = []) =>
      publishWarnings(FlowSchema.parse(callFlow({ url: '{{inputs.city}}', headers, query })), nodeRegistry)
        .map((w) => w.message)
        .filter((m) => m.includes('URL'));
    expect(urlFromInput([{ name: 'X-Client', value: '{{secrets.github}}' }])).toEqual([
      'node "call": its URL takes an input and it sends a secret: the MCP clients that call the tool can have your secret sent to any address',
    ]);
    // A secret sent in a query parameter goes wherever the client points the URL too.
    expect(urlFromInput([], [{ name: 'key', value: '{{secrets.maps}}' }])).toEqual([
      'node "call": its URL takes an input and it sends a secret: the MCP clients that call the tool can have your secret sent to any address',
    ]);
    expect(urlFromInput([])).toEqual([
      'node "call": its URL takes an input: the MCP clients that call the tool choose what it calls on this machine',
    ]);
  });
});
