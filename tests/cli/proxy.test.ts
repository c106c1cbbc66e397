import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const portOf = (server: Server) => (server.address() as AddressInfo).port;
const listening = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let api: Server;
let apiRequests: string[];
let models: OpenAiServer;
/** A real HTTP proxy on 127.0.0.1 (CONNECT tunnels), reaching hosts that resolve nowhere else: what each asked for. */
let proxy: Server;
let tunnels: string[];

beforeEach(async () => {
  apiRequests = [];
  api = createServer((req, res) => {
    apiRequests.push(`${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ forecast: 'sunny' }));
  });
  await listening(api);
  models = await startOpenAiServer(() => ({ content: 'Take sunglasses.' }));
  const names: Record<string, number> = {
    'api.example.test:80': portOf(api),
    'models.example.test:80': Number(new URL(models.url).port),
  };
  tunnels = [];
  proxy = createServer((_req, res) => res.writeHead(501).end());
  proxy.on('connect', (req, socket) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const port = names[target];
    if (port === undefined) return socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await listening(proxy);
});
afterEach(async () => {
  await Promise.all([closed(api), closed(proxy), models.close()]);
});

/** A database whose provider is at models.example.test, with a flow calling api.example.test and this machine's API. */
async function prepared(): Promise<string> {
  const db = join(tempDir(), 'proxy.db');
  await setTestProvider(db, 'http://models.example.test/v1', 'test-model', '--default');
  const file = join(tempDir(), 'weather.json');
  writeFileSync(
    file,
    JSON.stringify({
      ...buildFlow({
        id: 'weather',
        nodes: [
          input(),
          { id: 'remote', type: 'http', config: { url: 'http://api.example.test/forecast' } },
          { id: 'local', type: 'http', config: { url: `http://127.0.0.1:${portOf(api)}/local` } },
          llm('advice', 'The forecast is {{nodes.remote.output.forecast}} and {{nodes.local.output.forecast}}.'),
          output('{{nodes.advice.output}}'),
        ],
        edges: ['input>remote', 'input>local', 'remote>advice', 'local>advice', 'advice>result'],
      }),
      name: 'Weather',
    }),
  );
  const imported = await runJson<{ problems: { code: string; nodeId?: string }[] }>(['--db', db, 'import', file]);
  // An imported file's URLs are problems to dismiss before it runs (the import's own check).
  for (const problem of imported.problems) expect(problem.code).toBe('IMPORT_PROBLEM');
  for (const node of ['remote', 'local']) await runJson(['--db', db, 'dismiss', 'weather', node]);
  return db;
}

/** The proxy variables a test sets, every other one cleared: a developer's own proxy settings stay out of it. */
const proxyEnv = (set: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(
    ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'].flatMap((name) => [
      [name, ''],
      [name.toLowerCase(), ''],
    ]),
  ),
  ...set,
});

describe('the proxy the environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY)', () => {
  it('carries model calls and HTTP request nodes through it, this machine’s own addresses directly', async () => {
    const db = await prepared();
    const proxied = await runCli(
      ['--db', db, 'run', 'weather'],
      proxyEnv({ HTTP_PROXY: `http://127.0.0.1:${portOf(proxy)}` }),
    );
    expect(proxied.stderr).toContain('✓ advice');
    expect(proxied.code).toBe(0);
    expect(proxied.stdout).toBe('Take sunglasses.\n');
    expect(tunnels.sort()).toEqual(['api.example.test:80', 'models.example.test:80']);
    expect(apiRequests.sort()).toEqual([`127.0.0.1:${portOf(api)} /local`, 'api.example.test /forecast']);
    expect(models.requests[0]?.body.messages?.at(-1)?.content).toBe('The forecast is sunny and sunny.');
  });

  it('reaches the hosts NO_PROXY lists directly, and refuses a proxy that is no URL before any request', async () => {
    const db = await prepared();
    const direct = await runCli(
      ['--db', db, 'run', 'weather'],
      proxyEnv({ http_proxy: `http://127.0.0.1:${portOf(proxy)}`, NO_PROXY: 'api.example.test' }),
    );
    expect(direct.code).toBe(1);
    // Nobody answers for api.example.test but the proxy: reached directly, it cannot be.
    expect(direct.stderr).toContain('HTTP_UNREACHABLE');
    expect(direct.stderr).toContain('http://api.example.test/forecast could not be reached');
    expect(tunnels).not.toContain('api.example.test:80');
    // The local node may or may not have sent its request before the remote one failed the run:
    // what follows is checked to send none.
    apiRequests = [];

    const refused = await runCli(['--db', db, 'run', 'weather'], proxyEnv({ HTTPS_PROXY: 'proxy.corp:3128' }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'HTTPS_PROXY is "proxy.corp:3128", which is not a proxy\'s URL: write it as http://host:port (http://user:password@proxy.example:3128)',
    );
    // Its user and password are not repeated.
    const withCredentials = await runCli(
      ['--db', db, 'run', 'weather'],
      proxyEnv({ HTTP_PROXY: 'ada:s3cret@proxy.corp:3128' }),
    );
    expect(withCredentials.code).toBe(2);
    expect(withCredentials.stderr).toContain('HTTP_PROXY is "•••@proxy.corp:3128", which is not a proxy\'s URL');
    expect(withCredentials.stderr).not.toContain('s3cret');
    expect(apiRequests).toEqual([]);
  });
});
