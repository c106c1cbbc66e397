import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import { openServices, type Services } from '../services/open-services';
import { startHttpHost, type RunningHttpHost } from './http-host';

const tempDir = useTempDir();
let services: Services | undefined;
let host: RunningHttpHost | undefined;
afterEach(async () => {
  await host?.close();
  services?.close();
});

const initialize = (url: string, token: string | undefined) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  });

describe("the HTTP host's MCP endpoint, made by the first request to /mcp", () => {
  it('is tried again by the next request when it could not be made', async () => {
    services = openServices(join(tempDir(), 'endpoint.db'), { seedExamples: false });
    host = await startHttpHost(services, { port: 0, requireAuth: true, version: 'test' });
    // The endpoint reads the catalogue as it is made: the first read fails, as a database error would.
    vi.spyOn(services.versions, 'catalogueSignature').mockImplementationOnce(() => {
      throw new Error('the database is unreadable for now');
    });
    const refused = await initialize(host.url, host.token);
    expect(refused.status).toBe(500);
    expect(await refused.text()).toContain('the request was not carried out');
    const answered = await initialize(host.url, host.token);
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('"protocolVersion":"2025-11-25"');
  });
});
