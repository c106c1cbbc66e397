import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';

// One server for every test: each request below must leave it serving the next.
const dir = mkdtempSync(join(tmpdir(), 'flowbench-requests-'));
let serve: ServeProcess;

beforeAll(async () => {
  const db = join(dir, 'requests.db');
  prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
  serve = await startServe(db);
});
afterAll(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends raw bytes, as a browser's <img src> or a broken client would, and returns the status line. */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(bytes)}`)));
  });
}

const sessionOf = (editorUrl: string) => new URL(editorUrl).searchParams.get('session') ?? '';

describe('flowbench serve answers every request and stays up (finding 1)', () => {
  it.each([
    ['GET /%ff without a token', 'GET /%ff HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n', '400'],
    [
      'a request target that is no URL',
      'GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
      '400',
    ],
    ['a NUL in the path', 'GET /%00 HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n', '404'],
    ['bytes that are no HTTP', 'HELLO\r\n\r\n', '400'],
  ])('%s', async (_, template, status) => {
    const line = await rawRequest(serve.port, template.replace('PORT', String(serve.port)));
    expect(line).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    // Still serving: the editor's page and the API answer.
    const page = await fetch(serve.url);
    expect(page.status).toBe(200);
    const api = await fetch(`${serve.url}/api/flows/list`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await api.json()) as { ok: boolean }).ok).toBe(true);
  });

  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'POST /api/flows/%s is an unknown route: 404, not 500',
    async (method) => {
      const response = await fetch(`${serve.url}/api/flows/${method}`, {
        method: 'POST',
        headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'USAGE_ERROR' } });
    },
  );
});

describe("the editor's API refuses bodies it cannot take, and goes on", () => {
  const post = (body: string) =>
    fetch(`${serve.url}/api/flows/list`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body,
    });

  it('a body over 11 MB is 413 FILE_TOO_LARGE, one that is no JSON is 400 INVALID_JSON', async () => {
    const tooBig = await post(`"${'x'.repeat(12 * 1024 * 1024)}"`);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({
      ok: false,
      error: { code: 'FILE_TOO_LARGE', message: 'the request is larger than 11 MB' },
    });
    const notJson = await post('{"half":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } });
    // An empty body is no arguments at all.
    expect(await (await post('')).json()).toMatchObject({ ok: true });
  });
});

describe("the editor's API answers a failed call with an HTTP status that says what kind of failure it is", () => {
  const call = (method: string, args: unknown) =>
    fetch(`${serve.url}/api/flows/${method}`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });

  it.each([
    ['a flow that exists', 'get', { id: 'echo' }, 200, undefined],
    ['a flow that does not exist', 'get', { id: 'no-such-flow' }, 404, 'FLOW_NOT_FOUND'],
    ['an argument of the wrong type', 'get', { id: 5 }, 400, 'VALIDATION_ERROR'],
    [
      'an edit to a node that is gone',
      'applyChanges',
      { id: 'echo', changes: { updateNodes: [{ id: 'gone', label: 'x' }] } },
      409,
      'EDIT_CONFLICT',
    ],
  ])('%s: %i', async (_, method, args, status, code) => {
    const response = await call(method, args);
    expect(response.status).toBe(status);
    const reply = (await response.json()) as { ok: boolean; error?: { code: string; message: string } };
    expect(reply.ok).toBe(status === 200);
    if (code) expect(reply.error?.code).toBe(code);
  });
});

describe('importing MCP servers through the API refuses what it cannot read, and stores nothing then', () => {
  const call = async (args: unknown) => {
    const response = await fetch(`${serve.url}/api/servers/import`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return { status: response.status, reply: (await response.json()) as { error?: { code: string; message: string } } };
  };

  it.each([
    [
      'both a text and a client',
      { text: '{}', client: 'cursor' },
      'VALIDATION_ERROR',
      'give either the text of a config',
    ],
    ['neither', {}, 'VALIDATION_ERROR', 'give either the text of a config'],
    ['a client Flowbench does not know', { client: 'notepad' }, 'VALIDATION_ERROR', 'client'],
    [
      'a text that is no JSON',
      { text: '{"mcpServers": ' },
      'INVALID_JSON',
      'the pasted config is not valid JSON at line 1',
    ],
    ['JSON without servers', { text: '{"theme": "dark"}' }, 'VALIDATION_ERROR', 'the pasted config has no MCP servers'],
    ['a project folder without a client', { text: '{}', project: '/work/app' }, 'VALIDATION_ERROR', 'a project folder'],
    [
      'a relative project folder',
      { client: 'cursor', project: 'app' },
      'VALIDATION_ERROR',
      "the project folder's full path",
    ],
    [
      'a project of a client that keeps no config per project',
      { client: 'windsurf', project: '/work/app' },
      'VALIDATION_ERROR',
      'Windsurf keeps no config per project',
    ],
  ])('%s: 400, said', async (_, args, code, said) => {
    const { status, reply } = await call(args);
    expect(status).toBe(400);
    expect(reply.error?.code).toBe(code);
    expect(reply.error?.message).toContain(said);
    const listed = await fetch(`${serve.url}/api/servers/list`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await listed.json()) as { value: unknown[] }).value).toEqual([]);
  });
});

describe("the editor's API refuses an argument it does not know, instead of dropping it", () => {
  const call = async (method: string, args: unknown) => {
    const path = method.includes('.') ? method.replace('.', '/') : `flows/${method}`;
    const response = await fetch(`${serve.url}/api/${path}`, {
      method: 'POST',
      headers: { 'x-flowbench-session': sessionOf(serve.editorUrl), 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return {
      status: response.status,
      reply: (await response.json()) as { ok: boolean; error?: { code: string; message: string } },
    };
  };
  /** The echo flow as stored: its nodes and edges, and its description. */
  const storedEcho = async () => {
    const { reply } = await call('get', { id: 'echo' });
    const { nodes, edges, description } = (reply as unknown as { value: { flow: Record<string, unknown> } }).value.flow;
    return { nodes, edges, description };
  };

  it.each([
    [
      'a flow created with a description, which creating does not take',
      'create',
      { name: 'Described', description: 'lost' },
      '"description"',
    ],
    [
      'a change set with a misspelt list',
      'applyChanges',
      { id: 'echo', changes: { updateNode: [{ id: 'say', label: 'x' }] } },
      '"updateNode"',
    ],
    [
      'a node update with a misspelt field',
      'applyChanges',
      { id: 'echo', changes: { updateNodes: [{ id: 'say', lable: 'x' }] } },
      '"lable"',
    ],
    [
      'flow fields with a misspelt field',
      'applyChanges',
      { id: 'echo', changes: { flow: { descripton: 'x' } } },
      '"descripton"',
    ],
    [
      'an added node with a misspelt field',
      'applyChanges',
      { id: 'echo', changes: { addNodes: [{ id: 'extra', type: 'template', confg: { template: 'x' } }] } },
      '"confg"',
    ],
    [
      'a parameter with a misspelt field, deep in the flow fields',
      'applyChanges',
      { id: 'echo', changes: { flow: { parameters: [{ name: 'message', type: 'string', descripton: 'x' }] } } },
      '"changes.flow.parameters[0].descripton"',
    ],
    [
      "a node's setting its type does not have",
      'applyChanges',
      { id: 'echo', changes: { updateNodes: [{ id: 'say', config: { template: 'x', tempalte: 'y' } }] } },
      'config.tempalte is not a setting of template nodes',
    ],
    [
      "an added node's setting its type does not have",
      'applyChanges',
      { id: 'echo', changes: { addNodes: [{ id: 'extra', type: 'template', config: { text: 'x' } }] } },
      'config.text is not a setting of template nodes',
    ],
    [
      'a provider with a misspelt field',
      'providers.set',
      { provider: { name: 'local', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' } },
      '"provider.baseURL"',
    ],
  ])('%s: 400, naming it, and nothing stored', async (_, method, args, said) => {
    const before = await storedEcho();
    const { status, reply } = await call(method, args);
    expect(status).toBe(400);
    expect(reply.error?.code).toBe('VALIDATION_ERROR');
    expect(reply.error?.message).toContain(said);
    expect(await storedEcho()).toEqual(before);
    const { reply: listed } = await call('list', {});
    expect((listed as unknown as { value: { name: string }[] }).value.map((f) => f.name)).not.toContain('Described');
    const { reply: providers } = await call('providers.list', {});
    expect((providers as unknown as { value: { name: string }[] }).value.map((p) => p.name)).not.toContain('local');
  });
});

describe("the editor's page", () => {
  it('comes with its Content-Security-Policy as a header, not as a tag the scripts wait behind', async () => {
    const page = await fetch(serve.url);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
    );
    const html = await page.text();
    expect(html).toContain('<script type="module"');
    expect(html).not.toContain('Content-Security-Policy');
  });
});
