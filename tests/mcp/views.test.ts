import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { echoFlow } from '../fixtures/mcp-flows';
import { connectStdio, connectStdioV2, prepareDatabase, publishFlows, SHOWS_VIEWS } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

/**
 * Issue 19, point 3: seed 000's views become an MCP App. A real import
 * through the CLI, a real `flowbench mcp`, the MCP SDK's client.
 */
const tempDir = useTempDir();
const VIEWS = 'tests/fixtures/formats/tool-flow-views.json';
const MOCK = {
  order: 'A-1042',
  status: 'Shipped <b>today</b>',
  arrives: '2026-11-27',
  items: [
    { name: 'Kettle', quantity: 1 },
    { name: 'Mugs', quantity: 4 },
  ],
};

describe("seed 000's views as MCP Apps", () => {
  it('imports, publishes, lists its ui:// resource, serves the HTML, and answers with the view data', async () => {
    const db = join(tempDir(), 'views.db');
    const imported = await runJson<{ id: string; problems: unknown[]; warnings: { message: string }[] }>([
      '--db',
      db,
      'import',
      VIEWS,
    ]);
    expect(imported.problems).toEqual([]);
    expect(imported.warnings.map((w) => w.message)).toEqual([
      'views[1]: a tool shows one view: the first, "Order tracker", is offered; 1 more are kept in the flow\'s metadata',
    ]);
    expect((await runCli(['--db', db, 'publish', imported.id])).code).toBe(0);

    const { client } = await connectStdio(db, 'mcp-apps-host', { capabilities: SHOWS_VIEWS });
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'order_status');
      expect(tool?._meta).toEqual({ ui: { resourceUri: 'ui://flowbench/views/order_status' } });

      const { resources } = await client.listResources();
      expect(resources).toContainEqual(
        expect.objectContaining({
          uri: 'ui://flowbench/views/order_status',
          title: 'Order tracker',
          mimeType: 'text/html;profile=mcp-app',
        }),
      );
      const read = await client.readResource({ uri: 'ui://flowbench/views/order_status' });
      const html = (read.contents[0] as { text: string; mimeType: string }).text;
      expect(read.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
      expect(html).toContain('<h1>Order tracker</h1>');
      expect(html).toMatch(/<script>[\s\S]{100000,}<\/script>/);

      // Until fields are mapped, the tool answers with the view's mock data, as seed 000's view flows do.
      const result = await client.callTool({ name: 'order_status', arguments: { orderId: 'A-1042' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(MOCK);
    } finally {
      await client.close();
    }
  });

  it('says what it cannot honour: a view that is no view, mock data that is no object, views beside return values', async () => {
    const db = join(tempDir(), 'bad.db');
    const write = (name: string, extra: Record<string, unknown>) => {
      const file = join(tempDir(), name);
      writeFileSync(
        file,
        JSON.stringify({
          name: 'Bad',
          toolName: `bad_${name.length}`,
          toolDescription: 'x',
          returnValues: [],
          ...extra,
        }),
      );
      return file;
    };
    const notAView = await runJson<{ problems: { message: string }[] }>([
      '--db',
      db,
      'import',
      write('a.json', { views: ['a widget'] }),
    ]);
    expect(notAView.problems.map((p) => p.message)).toContain(
      'views[0]: not a view (an object with a name and mock data); it is kept in the metadata',
    );
    const badMock = await runJson<{ problems: { message: string }[] }>([
      '--db',
      db,
      'import',
      write('bb.json', { views: [{ name: 'Chart', mockData: [1, 2, 3] }] }),
    ]);
    expect(badMock.problems.map((p) => p.message)).toContain(
      "views[0].mockData: the view's mock data is not a JSON object, so it cannot be a tool's structured result; the view has none",
    );
    const both = await runJson<{ problems: { message: string }[] }>([
      '--db',
      db,
      'import',
      write('ccc.json', { returnValues: [{ text: 'hi' }], views: [{ name: 'Chart', mockData: {} }] }),
    ]);
    expect(both.problems.map((p) => p.message)).toContain(
      "views: the flow has both return values and 1 view(s), which seed 000 keeps apart; the return values are kept and the views left in the flow's metadata",
    );
  });

  it('every other flow tool offers the built-in run view: each node, how it ended and what it gave', async () => {
    const db = join(tempDir(), 'run-view.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    const { client } = await connectStdio(db, 'mcp-apps-host', { capabilities: SHOWS_VIEWS });
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'echo_tool')?._meta).toEqual({ ui: { resourceUri: 'ui://flowbench/run' } });
      const read = await client.readResource({ uri: 'ui://flowbench/run' });
      expect((read.contents[0] as { text: string }).text).toContain('data-kind="run"');
      const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'otters' } });
      expect(result._meta?.['dev.flowbench/run']).toMatchObject({
        flowName: 'Echo',
        status: 'succeeded',
        nodes: [
          { id: 'input', status: 'succeeded' },
          { id: 'say', status: 'succeeded', output: 'You said: otters' },
          { id: 'result', status: 'succeeded' },
        ],
      });
    } finally {
      await client.close();
    }
  });

  // The MCP Apps specification: hosts declare io.modelcontextprotocol/ui, servers offer views to those that do.
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`over ${revision}, the views go only to a client that declares it shows them; the content is the same`, async () => {
      const db = join(tempDir(), `views-${revision}.db`);
      prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
      const connect = async (capabilities: Record<string, object>) => {
        if (revision === '2025-11-25') return (await connectStdio(db, 'client', { capabilities })).client;
        return connectStdioV2(db, 'modern', 'client', { capabilities });
      };
      const answers = [];
      for (const capabilities of [{}, SHOWS_VIEWS]) {
        const client = await connect(capabilities);
        try {
          const { tools } = await client.listTools();
          const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'otters' } });
          answers.push({ meta: tools.find((t) => t.name === 'echo_tool')?._meta, result });
        } finally {
          await client.close();
        }
      }
      const [plain, host] = answers;
      expect(plain?.meta).toBeUndefined();
      expect(plain?.result._meta?.['dev.flowbench/run']).toBeUndefined();
      expect(host?.meta).toEqual({ ui: { resourceUri: 'ui://flowbench/run' } });
      expect(host?.result._meta?.['dev.flowbench/run']).toMatchObject({ flowName: 'Echo', status: 'succeeded' });
      expect(plain?.result.content).toEqual([
        { type: 'text', text: 'You said: otters' },
        { type: 'text', text: 'count=1' },
      ]);
      expect(host?.result.content).toEqual(plain?.result.content);
    });
  }
});
