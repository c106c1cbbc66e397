import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFlow } from '../../engine/run-flow';
import { FlowSchema, type FlowInput } from '../../model/flow';
import type { LlmPort } from '../../model/llm';
import type { RunEvent } from '../../model/run';
import { validateFlow } from '../../model/validate';
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
let answer: (request: Received) => { status?: number; type?: string; body: string };

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

async function run(flow: FlowInput, inputs: Record<string, unknown> = { city: 'Oslo' }) {
  const events: RunEvent[] = [];
  const result = await runFlow({
    flow: FlowSchema.parse(flow),
    inputs,
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
  return { result, step, failed };
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
