import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, runJson } from '../helpers/cli';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
/** The test certificate: self-signed, as a company's own authority is to a machine that has not been told of it. */
const CERT = join(ROOT, 'tests/fixtures/tls/localhost.crt');
let server: Server;
let url: string;

beforeEach(async () => {
  server = createServer(
    { cert: readFileSync(CERT), key: readFileSync(join(ROOT, 'tests/fixtures/tls/localhost.key')) },
    (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // An OpenAI-compatible model server's list too, for a provider's Test.
      res.end(req.url === '/v1/models' ? '{"data":[{"id":"corp-model"}]}' : '{"status":"green"}');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("an internal API signed by a company's own certificate authority", () => {
  it('is refused with HTTP_CERTIFICATE until NODE_EXTRA_CA_CERTS names the authority, then called', async () => {
    const db = join(tempDir(), 'certs.db');
    const file = join(tempDir(), 'health.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...buildFlow({
          id: 'health',
          nodes: [input(), { id: 'check', type: 'http', config: { url } }, output('{{nodes.check.output.status}}')],
          edges: ['input>check', 'check>result'],
        }),
        name: 'Health',
      }),
    );
    await runJson(['--db', db, 'import', file]);
    // The import names the URL it calls as a problem to dismiss before it runs.
    await runJson(['--db', db, 'dismiss', 'health', 'check']);

    const refused = await runCli(['--db', db, 'run', 'health']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `[HTTP_CERTIFICATE] node "check": GET ${url} was not called: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT); a company's own certificate authority goes in NODE_EXTRA_CA_CERTS`,
    );

    const trusted = await runCli(['--db', db, 'run', 'health'], { NODE_EXTRA_CA_CERTS: CERT });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toBe('green\n');
  });

  it("makes a model server's Test say so, and pass once NODE_EXTRA_CA_CERTS names the authority", async () => {
    const db = join(tempDir(), 'providers.db');
    const base = new URL('/v1', url).href;
    await runJson(['--db', db, 'providers', 'set', 'corp', '--kind', 'openai-compatible', '--base-url', base]);
    const refused = await runCli(['--db', db, 'providers', 'test', 'corp']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `[PROVIDER_UNAVAILABLE]: cannot reach provider "corp" at ${base}: its certificate is not one this machine trusts (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
    expect(await runJson(['--db', db, 'providers', 'test', 'corp'], { NODE_EXTRA_CA_CERTS: CERT })).toEqual({
      url: base,
      models: ['corp-model'],
    });
  });
});
