import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowInput } from '../../core/model/flow';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';
import { TINY_PNG_BASE64, tinyPng } from '../helpers/images';

const tempDir = useTempDir();
let api: Server;

beforeEach(async () => {
  api = createServer((req, res) => {
    res.writeHead(200, { 'content-type': req.url === '/chart.png' ? 'image/png' : 'text/plain' });
    res.end(req.url === '/chart.png' ? tinyPng() : 'a caption');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
});
afterEach(() => new Promise<void>((resolve) => api.close(() => resolve())));

/** input → chart (an image) and caption (text) → both as return values. */
function chartFlow(base: string): FlowInput {
  return {
    ...buildFlow({
      id: 'chart',
      nodes: [
        input(),
        { id: 'chart', type: 'http', config: { url: `${base}/chart.png` } },
        { id: 'caption', type: 'http', config: { url: `${base}/caption` } },
        output('{{nodes.chart.output}}', 'Chart: {{nodes.caption.output}}'),
      ],
      edges: ['input>chart', 'input>caption', 'chart>result', 'caption>result'],
    }),
    name: 'Chart',
    tool: { name: 'chart' },
  };
}

describe('a flow that returns an image', () => {
  it('answers an MCP client with image content (its type and base64) beside the text', async () => {
    const db = join(tempDir(), 'images.db');
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    prepareDatabase(db, (services) => publishFlows(services, [chartFlow(base)]));
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({ name: 'chart', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([
        { type: 'image', mimeType: 'image/png', data: TINY_PNG_BASE64 },
        { type: 'text', text: 'Chart: a caption' },
      ]);
    } finally {
      await client.close();
    }
  });
});
