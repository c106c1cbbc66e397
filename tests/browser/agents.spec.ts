import type { Locator, Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { AgentSettingsSchema } from '../../core/model/agents';
import { importFlowText } from '../../core/services/import-service';
import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { everythingStdio } from '../helpers/mcp-servers';
import { toolMessages } from '../helpers/openai-server';
import { expect, expectSaved, openFlow, pasteInto, storedFlow, test, withDatabase, type Served } from './fixtures';

const agentFlow = {
  ...buildFlow({
    id: 'echo-agent',
    parameters: [{ name: 'question', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        id: 'agent',
        type: 'agent',
        label: 'Researcher',
        position: { x: 320, y: 100 },
        config: { prompt: '{{inputs.question}}', tools: [{ server: 'everything', tool: 'echo' }] },
      },
      { ...output('{{nodes.agent.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>agent', 'agent>result'],
  }),
  name: 'Echo agent',
};

test('MCP servers screen: servers a desktop client already has are imported from its config, shown first with what cannot be taken', async ({
  page,
  served,
}) => {
  const everything = everythingStdio();
  await page.goto(`${served.editorUrl}#/servers`);
  await page.getByRole('button', { name: 'Import from a client…' }).click();
  const form = page.getByRole('form', { name: 'Import servers' });
  // This machine has no Claude Desktop config: said, nothing else happens.
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('alert')).toContainText('Claude Desktop has no config at');

  // A project's own config: the one Cursor keeps in its folder.
  const project = mkdtempSync(join(tmpdir(), 'flowbench-project-'));
  mkdirSync(join(project, '.cursor'));
  writeFileSync(
    join(project, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { 'project-files': { command: everything.command, args: everything.args } } }),
  );
  await form.getByRole('combobox', { name: 'From' }).selectOption('cursor');
  await form.getByRole('textbox', { name: /^Project folder/ }).fill(project);
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('list', { name: 'Servers found' })).toContainText('project-files (stdio: ');
  rmSync(project, { recursive: true, force: true });

  await form.getByRole('combobox', { name: 'From' }).selectOption('paste');
  const config = {
    mcpServers: {
      everything: { command: everything.command, args: everything.args, env: { SECRET_TOKEN: 'pasted-secret' } },
      socket: { type: 'websocket', url: 'wss://example.com/mcp' },
    },
  };
  await form.getByRole('textbox', { name: /^Config/ }).fill(JSON.stringify(config, null, 2));
  await form.getByRole('button', { name: 'Preview' }).click();
  // Shown first: nothing is written until Import.
  await expect(form.getByRole('list', { name: 'Servers found' })).toContainText('everything (stdio: ');
  await expect(form.getByRole('list', { name: 'Servers found' })).toContainText('will be added');
  await expect(form.getByRole('list', { name: 'Not taken as they are' })).toContainText(
    'mcpServers.socket: has the transport "websocket", which Flowbench does not know',
  );
  await page.screenshot({ path: test.info().outputPath('import-servers.png') });
  withDatabase(served.db, (services) => expect(services.servers.configs()).toEqual([]));

  await form.getByRole('button', { name: 'Import 1 server' }).click();
  await expect(form.getByRole('list', { name: 'Servers found' })).toContainText('added');
  const row = page.getByRole('group', { name: 'Server everything' });
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row.locator('.badge')).toHaveText('connected');
  await expect(row).not.toContainText('pasted-secret');
  withDatabase(served.db, (services) => {
    const stored = services.servers.configs().find((c) => c.name === 'everything');
    expect(stored?.transport === 'stdio' && stored.env.SECRET_TOKEN).toBe('pasted-secret');
  });
  await form.getByRole('button', { name: 'Done' }).click();
  await expect(form).toHaveCount(0);
});

/** The MCP servers screen's Add a server form, opened from the flows list, with the server's name typed. */
async function newServerForm(page: Page, served: Served, name: string): Promise<Locator> {
  await page.goto(served.editorUrl);
  await page.getByRole('link', { name: 'MCP servers' }).click();
  await expect(page.getByRole('heading', { name: 'MCP servers' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a server' }).click();
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  return form;
}

test('MCP servers screen: a server half added is still in its form after a look at another page; Cancel closes it for good', async ({
  page,
  served,
}) => {
  const form = await newServerForm(page, served, 'half-typed');
  await form.getByRole('textbox', { name: /^Command/ }).fill('npx');
  await form.getByRole('textbox', { name: /^Arguments/ }).fill('-y\nsome-server');
  await page.getByRole('link', { name: '← Flows' }).click();
  await page.getByRole('link', { name: 'Connect a client' }).click();
  await page.goBack();
  await page.getByRole('link', { name: 'MCP servers' }).click();
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('half-typed');
  await expect(form.getByRole('textbox', { name: /^Command/ })).toHaveValue('npx');
  await expect(form.getByRole('textbox', { name: /^Arguments/ })).toHaveValue('-y\nsome-server');
  withDatabase(served.db, (services) => expect(services.servers.list()).toEqual([]));

  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('link', { name: '← Flows' }).click();
  await page.getByRole('link', { name: 'MCP servers' }).click();
  await expect(page.getByRole('heading', { name: 'MCP servers' })).toBeVisible();
  await expect(form).toHaveCount(0);
});

test('MCP servers screen: a whole command line pasted as the command goes into the command and its arguments, and the server connects', async ({
  page,
  served,
}) => {
  const everything = everythingStdio();
  const form = await newServerForm(page, served, 'pasted');
  const command = form.getByRole('textbox', { name: /^Command/ });
  await pasteInto(command, quote([everything.command, ...everything.args]));
  // Whole, the line names a program that does not exist ("spawn … ENOENT").
  await expect(command).toHaveValue(everything.command);
  await expect(form.getByRole('textbox', { name: /^Arguments/ })).toHaveValue(everything.args.join('\n'));
  await expect(form).toContainText(`Split at its spaces, as quoted: the command ${everything.command}, and`);
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('group', { name: 'Server pasted' });
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row.locator('.badge')).toHaveText('connected');
});

test('MCP servers screen: a server added from the form connects and lists its tools; a broken one says why; secrets stay masked (issue 14, point 1)', async ({
  page,
  served,
}) => {
  const everything = everythingStdio();
  const form = await newServerForm(page, served, 'everything');
  await form.getByRole('textbox', { name: /^Command/ }).fill(everything.command);
  await form.getByRole('textbox', { name: /^Arguments/ }).fill(everything.args.join('\n'));
  await form.getByRole('textbox', { name: /^Environment/ }).fill('SECRET_TOKEN=do-not-show-me');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByRole('group', { name: 'Server everything' });
  await expect(row.locator('.badge')).toHaveText('idle');
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row.locator('.badge')).toHaveText('connected');
  await row.getByText(/\d+ tools/).click();
  const tools = row.getByRole('list', { name: 'Tools of everything' });
  await expect(tools).toContainText('echo');
  // Each tool opens to its input schema.
  const echo = tools.getByRole('listitem').filter({ hasText: 'Echoes back the input string' });
  await echo.locator('summary').first().click();
  await expect(echo).toContainText('input schema');
  await expect(echo).toContainText('message');
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(
    page.getByRole('form', { name: 'Edit everything' }).getByRole('textbox', { name: /^Environment/ }),
  ).toHaveValue('SECRET_TOKEN=••••••');
  await expect(page.locator('body')).not.toContainText('do-not-show-me');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Add a server' }).click();
  const broken = page.getByRole('form', { name: 'Add a server' });
  // What the host would refuse is said at the field before anything is sent: a name and a command are needed…
  const name = broken.getByRole('textbox', { name: 'Name', exact: true });
  const validity = (field: Locator) =>
    field.evaluate((input: HTMLInputElement) => ({
      missing: input.validity.valueMissing,
      mismatch: input.validity.patternMismatch,
      title: input.title,
    }));
  await broken.getByRole('button', { name: 'Save' }).click();
  expect(await validity(name)).toMatchObject({ missing: true });
  expect(await validity(broken.getByRole('textbox', { name: /^Command/ }))).toMatchObject({ missing: true });
  // …and a name in the characters a server name may have.
  await name.fill('my server');
  expect(await validity(name)).toEqual({
    missing: false,
    mismatch: true,
    title: 'a server name is 1–64 letters, digits, _ . or -',
  });
  await expect(page.getByRole('alert')).toHaveCount(0);
  withDatabase(served.db, (services) => expect(services.servers.configs().map((c) => c.name)).toEqual(['everything']));
  await name.fill('broken');
  await broken.getByRole('textbox', { name: /^Command/ }).fill('flowbench-no-such-command');
  await broken.getByRole('button', { name: 'Save' }).click();
  const brokenRow = page.getByRole('group', { name: 'Server broken' });
  await brokenRow.getByRole('button', { name: 'Test' }).click();
  await expect(brokenRow.locator('.badge')).toHaveText('failed');
  await expect(brokenRow.locator('.error')).toContainText('SERVER_UNAVAILABLE');
  await expect(brokenRow.locator('.error')).toContainText('flowbench-no-such-command');
  // The secret kept its value through the edit screens: the server still gets it.
  withDatabase(served.db, (services) => {
    const stored = services.servers.configs().find((c) => c.name === 'everything');
    expect(stored?.transport === 'stdio' && stored.env.SECRET_TOKEN).toBe('do-not-show-me');
  });

  // An agent's tools are chosen from the servers' tools by name, not typed from memory.
  await page.getByRole('link', { name: '← Flows' }).click();
  await page.getByRole('link', { name: 'Agents' }).click();
  // New agent with no name yet is stopped at the name, said by the browser (it did nothing before).
  await page.getByRole('button', { name: 'New agent' }).click();
  expect(
    await page.getByLabel('New agent name').evaluate((input: HTMLInputElement) => input.validity.valueMissing),
  ).toBe(true);
  await page.getByLabel('New agent name').fill('Picker');
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('region', { name: 'Edit agent Picker' });
  const pick = editor.getByRole('group', { name: 'Choose tools from a server' });
  await pick.getByLabel('Choose from').selectOption('everything');
  // Listed with what each does, read from the server.
  await expect(pick.getByRole('listitem').filter({ hasText: /^echo/ })).toContainText('Echoes back the input');
  await pick.getByRole('checkbox', { name: /^echo\b/ }).check();
  await expect(editor.getByRole('textbox', { name: /^Tools/ })).toHaveValue('everything/echo');
  // Saved as it is chosen, no click needed.
  await expect(editor.getByRole('status')).toHaveText('Draft saved');
  await expect(page.getByRole('button', { name: 'Agent Picker' })).toContainText('1 tool');
  withDatabase(served.db, (services) =>
    expect(services.agents.get('Picker').draft.tools).toEqual([{ server: 'everything', tool: 'echo' }]),
  );
});

test("an agent node's tools are ticked off a server's list (and the published flows'), each saved as server and name; unticked, it goes", async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => {
    services.servers.set(everythingStdio());
    const shout = buildFlow({
      id: 'shout',
      nodes: [input(), output('shouted')],
      edges: ['input>result'],
    });
    services.versions.publish(
      services.flows.create({ ...shout, name: 'Shout', description: 'Shouts the text back.', tool: { name: 'shout' } })
        .id,
    );
  });
  await openFlow(page, served, {
    ...buildFlow({
      id: 'ticked',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'agent', type: 'agent', position: { x: 320, y: 100 }, config: { prompt: 'Add 2 and 3.' } },
        { ...output('{{nodes.agent.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>agent', 'agent>result'],
    }),
    name: 'Ticked',
  });
  await page.getByTestId('rf__node-agent').click();
  // A row added before choosing makes way for the tool ticked.
  await page.getByRole('button', { name: 'Add tool' }).click();
  await expectSaved(page);
  const pick = page.getByRole('group', { name: 'Choose tools from a server' });
  const tools = () => storedFlow(served.db, 'ticked').nodes.find((n) => n.id === 'agent')?.config.tools;
  await pick.getByLabel('Choose from').selectOption('everything');
  await expect(pick.getByRole('listitem').filter({ hasText: /^get-sum/ })).toContainText(
    'Returns the sum of two numbers',
  );
  await pick.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('tool-checklist-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('tool-checklist-dark.png') });
  await pick.getByRole('checkbox', { name: /^get-sum\b/ }).check();
  await pick.getByRole('checkbox', { name: /^echo\b/ }).check();
  await expectSaved(page);
  expect(tools()).toEqual([
    { server: 'everything', tool: 'get-sum' },
    { server: 'everything', tool: 'echo' },
  ]);
  await expect(page.getByTestId('rf__node-agent')).toContainText('2 tools');

  // The published flows are a list of their own, under "flowbench".
  await pick.getByLabel('Choose from').selectOption('flowbench');
  await expect(pick.getByRole('listitem')).toHaveText([/^shout\s*Shouts the text back\./]);
  await pick.getByRole('checkbox', { name: /^shout\b/ }).check();
  await expectSaved(page);

  // Unticked, a tool goes; the others stay as they were.
  await pick.getByLabel('Choose from').selectOption('everything');
  await pick.getByRole('checkbox', { name: /^get-sum\b/ }).uncheck();
  await expectSaved(page);
  expect(tools()).toEqual([
    { server: 'everything', tool: 'echo' },
    { server: 'flowbench', tool: 'shout' },
  ]);
  await expect(pick.getByRole('checkbox', { name: /^echo\b/ })).toBeChecked();
});

test('an agent run shows its tool calls live on the card and in the step details (issue 14, point 3)', async ({
  page,
  served,
  localModel,
}) => {
  withDatabase(served.db, (services) => services.servers.set(everythingStdio()));
  await localModel((request, index) =>
    index === 0
      ? { toolCalls: [{ name: 'echo', arguments: { message: 'otters' } }] }
      : { content: `The tool said ${toolMessages(request)[0]?.content ?? ''}` },
  );
  await openFlow(page, served, agentFlow);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-question').fill('Where do otters sleep?');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre');
  await expect(result).toHaveText(['The tool said Echo: otters']);
  await expect(page.locator('.react-flow__node[data-id="agent"] .fb-step-line')).toContainText('1 tool call');
  await page.locator('.react-flow__node[data-id="agent"]').click();
  const call = page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem', { name: 'Tool call echo' });
  await expect(call).toContainText('everything/echo');
  await expect(call).toContainText('otters');
  await expect(call).toContainText('Echo: otters');
});

test("an MCP tool node adds the arguments its tool's schema names in one click, and the call runs with them", async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.servers.set(everythingStdio()));
  await openFlow(page, served, {
    ...buildFlow({
      id: 'tool-call',
      parameters: [{ name: 'message', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'call', type: 'mcp_tool', position: { x: 320, y: 100 }, config: { server: 'everything', tool: 'echo' } },
        { ...output('{{nodes.call.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Tool call',
  });
  await page.getByTestId('rf__node-call').click();
  await page.getByRole('button', { name: 'Add argument' }).click();
  const takes = page.getByRole('group', { name: 'Arguments the tool takes' });
  // Read from the server, started for it: a cold start of server-everything takes seconds on a busy machine.
  await expect(takes).toContainText('everything/echo takes message (required)', { timeout: 20_000 });
  await takes.getByRole('button', { name: 'Add it' }).click();
  await expectSaved(page);
  await expect(takes).toHaveCount(0);
  // The row added before the names were known made way for the named one.
  expect(storedFlow(served.db, 'tool-call').nodes.find((n) => n.id === 'call')?.config.arguments).toEqual([
    { name: 'message', value: '{{inputs.message}}' },
  ]);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-message').fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toContainText([
    'Echo: otters',
  ]);
});

test("an MCP tool's image shows as the picture in its step, between its texts, and goes to clients as image content", async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.servers.set(everythingStdio()));
  await openFlow(page, served, {
    ...buildFlow({
      id: 'logo',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        {
          id: 'call',
          type: 'mcp_tool',
          position: { x: 320, y: 100 },
          config: { server: 'everything', tool: 'get-tiny-image' },
        },
        { ...output('{{nodes.call.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Logo',
  });
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 20_000 });
  const client = page.getByRole('region', { name: 'What an MCP client receives' });
  await expect(client).toContainText("content[0] · textHere's the image you requested:");
  await expect(client).toContainText('content[1] · image (image/png)');
  await expect(client.getByRole('img', { name: 'the image/png image a client receives' })).toBeVisible();
  await page.getByTestId('rf__node-call').click();
  const stepOutput = page.getByLabel('Step details').locator('.step-block').filter({ hasText: 'Output' });
  await expect(stepOutput).toContainText("Here's the image you requested:");
  await expect(stepOutput).toContainText('image/png');
  await expect(stepOutput).not.toContainText('iVBORw0KGgo');
  const image = stepOutput.getByRole('img', { name: 'the image/png the step gave' });
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('an MCP tool node on the server "flowbench" calls a published flow: its inputs offered and checked, the run a linked child run', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => {
    const shout = buildFlow({
      id: 'shout',
      parameters: [{ name: 'text', type: 'string' }],
      nodes: [input(), template('say', '{{inputs.text}}!'), output('{{nodes.say.output}}')],
      edges: ['input>say', 'say>result'],
    });
    services.versions.publish(services.flows.create({ ...shout, name: 'Shout', tool: { name: 'shout' } }).id);
  });
  await openFlow(page, served, {
    ...buildFlow({
      id: 'uses-shout',
      parameters: [{ name: 'text', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'call', type: 'mcp_tool', position: { x: 320, y: 100 }, config: { server: 'flowbench', tool: 'shout' } },
        { ...output('{{nodes.call.output}}'), position: { x: 640, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Uses shout',
  });
  await page.getByTestId('rf__node-call').click();
  // Checked as a flow node's call is, before any run: the flow's required input is not given yet.
  await expect(page.locator('.inspector')).toContainText(
    '"Shout" requires the input "text" (string): add it under Arguments',
  );
  await expect(page.getByTestId('rf__node-call')).toHaveClass(/has-problems/);
  const takes = page.getByRole('group', { name: 'Arguments the called flow takes' });
  await expect(takes).toContainText('shout takes text (required)');
  await takes.getByRole('button', { name: 'Add it' }).click();
  await expectSaved(page);
  await expect(page.getByTestId('rf__node-call')).not.toHaveClass(/has-problems/);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-text').fill('otters');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toContainText([
    'otters!',
  ]);
  await expect(page.getByTestId('rf__node-call')).toHaveAttribute('data-status', 'succeeded');
  // The called flow ran as a run of its own, opened from the step.
  await page.getByTestId('rf__node-call').click();
  await page.getByRole('button', { name: 'Open that run' }).click();
  await expect(page).toHaveURL(/#\/flow\/shout/);
  await expect(page.getByTestId('rf__node-say')).toHaveAttribute('data-status', 'succeeded');
});

test('while an agent waits for a tool, its card says which one, and the call shows as running in the step details', async ({
  page,
  served,
  localModel,
}) => {
  withDatabase(served.db, (services) => services.servers.set(everythingStdio()));
  await localModel((_, index) =>
    index === 0
      ? { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 3 } }] }
      : { content: 'done waiting' },
  );
  await openFlow(page, served, {
    ...agentFlow,
    nodes: agentFlow.nodes.map((n) =>
      n.id === 'agent'
        ? {
            ...n,
            config: { prompt: 'wait', tools: [{ server: 'everything', tool: 'trigger-long-running-operation' }] },
          }
        : n,
    ),
  });
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-question').fill('wait');
  await page.locator('.react-flow__node[data-id="agent"]').click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const card = page.locator('.react-flow__node[data-id="agent"] .fb-step-line');
  await expect(card).toContainText('calling trigger-long-running-operation');
  await expect(page.getByRole('listitem', { name: 'Tool call trigger-long-running-operation' })).toContainText(
    'running…',
  );
  await expect(card).toContainText('1 tool call', { timeout: 15_000 });
});

test('agents screen: agents an import created are marked for review until a person reviews them (issue 14, point 2)', async ({
  page,
  served,
}) => {
  await withDatabase(served.db, (services) =>
    importFlowText(
      services,
      readFileSync('tests/fixtures/formats/flow-definition-minimal.json', 'utf8'),
      'minimal.json',
    ),
  );
  await page.goto(served.editorUrl);
  await page.getByRole('link', { name: 'Agents' }).click();
  const agent = page.getByRole('button', { name: 'Agent Сбор требований' });
  await expect(agent).toContainText('imported: review');
  await agent.click();
  const editor = page.getByRole('region', { name: 'Edit agent Сбор требований' });
  await editor.getByLabel('System prompt').fill('You gather requirements.');
  await editor.getByRole('button', { name: 'Mark reviewed' }).click();
  await expect(agent).not.toContainText('imported: review');
  await expect(page.getByRole('list', { name: 'Versions' })).toContainText('aaaaaaaa-1111-2222-3333-444444444444');
  withDatabase(served.db, (services) => {
    const stored = services.agents.get('Сбор требований');
    expect(stored).toMatchObject({ status: 'active', draft: { system: 'You gather requirements.' } });
  });
});

test('what is typed in an agent is saved without a click: leaving at once, choosing another agent, a refused value kept with why', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => {
    services.agents.create({ name: 'Writer', draft: AgentSettingsSchema.parse({}) });
    services.agents.create({ name: 'Checker', draft: AgentSettingsSchema.parse({}) });
  });
  await page.goto(served.editorUrl);
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Agent Writer' }).click();
  const writer = page.getByRole('region', { name: 'Edit agent Writer' });

  // Typed, then straight to another page: the draft is stored.
  await writer.getByLabel('System prompt').fill('You write release notes.');
  await page.getByRole('link', { name: '← Flows' }).click();
  await expect
    .poll(() => withDatabase(served.db, (s) => s.agents.get('Writer').draft.system))
    .toBe('You write release notes.');
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Agent Writer' }).click();
  await expect(writer.getByLabel('System prompt')).toHaveValue('You write release notes.');

  // Typed, then another agent chosen: stored too.
  await writer.getByRole('combobox', { name: 'Model' }).fill('gpt-4o');
  await page.getByRole('button', { name: 'Agent Checker' }).click();
  await expect.poll(() => withDatabase(served.db, (s) => s.agents.get('Writer').draft.model)).toBe('gpt-4o');

  // A value the host refuses: said, kept on screen, the stored draft unchanged; fixed, it is saved.
  const checker = page.getByRole('region', { name: 'Edit agent Checker' });
  await checker.getByLabel('Max steps').fill('500');
  await expect(checker.getByRole('status')).toContainText('Not saved: ');
  await expect(checker.getByRole('status')).toContainText('maxSteps');
  await expect(checker.getByLabel('Max steps')).toHaveValue('500');
  expect(withDatabase(served.db, (s) => s.agents.get('Checker').draft.maxSteps)).toBe(8);
  await page.screenshot({ path: test.info().outputPath('agent-refused-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('agent-refused-dark.png') });
  await checker.getByLabel('Max steps').fill('12');
  await expect(checker.getByRole('status')).toHaveText('Draft saved');
  expect(withDatabase(served.db, (s) => s.agents.get('Checker').draft.maxSteps)).toBe(12);
});
