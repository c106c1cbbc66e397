import type { Page } from '@playwright/test';
import { buildFlow, input, llm } from '../helpers/flow-builder';
import { publishFlows } from '../helpers/mcp';
import { everythingStdio } from '../helpers/mcp-servers';
import { structuredFlow } from '../fixtures/mcp-flows';
import { expect, openFlow, test, withDatabase } from './fixtures';

/**
 * input → classify (JSON with a schema) → facts (JSON without one) → check
 * (a condition on classify's answer) → result. The fields inside the JSON
 * outputs are offered where references and JSONPaths are written.
 */
const triage = {
  ...buildFlow({
    id: 'fields',
    parameters: [{ name: 'ticket', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        ...llm('classify', 'Classify {{inputs.ticket}}', {
          outputFormat: 'json',
          jsonSchema: {
            type: 'object',
            properties: {
              category: { type: 'string', enum: ['billing', 'bug'] },
              urgency: { type: 'string', description: 'low or high' },
            },
          },
        }),
        position: { x: 300, y: 100 },
      },
      { ...llm('facts', 'Facts about {{inputs.ticket}}', { outputFormat: 'json' }), position: { x: 600, y: 100 } },
      {
        id: 'check',
        type: 'condition',
        config: { rules: [{ value: '{{nodes.classify.output}}', path: '$', operator: 'is_not_empty' }] },
        position: { x: 900, y: 100 },
      },
      {
        id: 'result',
        type: 'output',
        config: { returnValues: [{ id: 'r0', text: 'Filed: ' }] },
        position: { x: 1200, y: 100 },
      },
    ],
    edges: ['input>classify', 'classify>facts', 'facts>check', 'check.true>result'],
  }),
  name: 'Fields',
};

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);
const pathChoices = (page: Page, rule: number) =>
  page
    .getByTestId(`field-rules.${rule}.path-choices`)
    .locator('option')
    .evaluateAll((os) => os.map((o) => o.getAttribute('value')));

/** Types `typed` at the end of the result's first return value; the completion list opens on it. */
async function typeInResult(page: Page, typed: string) {
  await card(page, 'result').click();
  await page.locator('.template-editor .cm-content').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(typed);
}
const completion = (page: Page, label: string) =>
  page.locator('.cm-tooltip-autocomplete li').filter({ has: page.getByText(label, { exact: true }) });

test('the fields inside JSON outputs are offered after {{ and as a condition’s JSONPaths: a schema’s before any run, what a run gave after it', async ({
  page,
  served,
  localModel,
}) => {
  await localModel((request) =>
    JSON.stringify(request.body.messages).includes('Classify')
      ? { content: JSON.stringify({ category: 'bug', urgency: 'high' }) }
      : { content: JSON.stringify({ answer: { city: 'Oslo' } }) },
  );
  await openFlow(page, served, triage);

  // Before any run: classify's schema says what is inside its answer.
  await card(page, 'check').click();
  await expect.poll(() => pathChoices(page, 0)).toEqual(['$', '$.category', '$.urgency']);
  await typeInResult(page, '{{nodes.classify.output.');
  const category = completion(page, 'nodes.classify.output.category');
  await expect(category).toContainText('string: one of "billing", "bug"');
  await expect(completion(page, 'nodes.classify.output.urgency')).toContainText('string: low or high');
  // facts has no schema: nothing inside it is known yet.
  await expect(page.locator('.cm-tooltip-autocomplete li', { hasText: 'nodes.facts.output.' })).toHaveCount(0);
  await category.click();
  await expect(page.locator('.template-editor .cm-content').first()).toHaveText(
    'Filed: {{nodes.classify.output.category}}',
  );
  // The Insert chips stay one per node: the fields are in the completion list.
  const chips = page.getByRole('group', { name: 'Insert a reference' }).getByRole('button');
  await expect(chips).toHaveText([
    'inputs.ticket',
    'nodes.input.output',
    'nodes.classify.output',
    'nodes.classify.error',
    'nodes.facts.output',
    'nodes.facts.error',
    'nodes.check.output',
  ]);

  // After a run: what facts gave is offered, with its value.
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-ticket').fill('The app crashes');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText('succeeded');
  await page.getByRole('tab', { name: 'Inspector' }).click();
  await typeInResult(page, ' in {{nodes.facts.output.');
  const city = completion(page, 'nodes.facts.output.answer.city');
  await expect(city).toContainText('last run: "Oslo"');
  await city.click();

  await card(page, 'check').click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.locator('.template-editor .cm-content').nth(1).click();
  await page.keyboard.type('{{nodes.facts.output.answer}}');
  await page.keyboard.press('Escape');
  await expect.poll(() => pathChoices(page, 1)).toEqual(['$', '$.city']);
  // The condition holds on the field chosen: run again, and the result runs.
  await page.locator('[id="field-rules.1.path"]').fill('$.city');
  await page.locator('[id="field-rules.1.operator"]').selectOption('equals');
  await page.locator('[id="field-rules.1.operand"]').fill('Oslo');
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'What an MCP client receives' })).toContainText('Filed: bug in Oslo');
});

test('a flow node’s and an MCP tool node’s result fields are offered before any run: the published flow’s structured result and the tool’s outputSchema say them', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => {
    publishFlows(services, [structuredFlow]);
    services.servers.set(everythingStdio());
  });
  // The tool server is slow to start (held here): the flow's fields do not wait for it.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let serverAsks = 0;
  await page.route('**/api/servers/**', async (route) => {
    serverAsks += 1;
    await held;
    await route.continue();
  });
  await openFlow(page, served, {
    ...buildFlow({
      id: 'caller',
      parameters: [{ name: 'word', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        {
          id: 'measure',
          type: 'flow',
          config: { flow: 'measure_word', inputs: [{ name: 'word', value: '{{inputs.word}}' }] },
          position: { x: 300, y: 0 },
        },
        {
          id: 'weather',
          type: 'mcp_tool',
          config: {
            server: 'everything',
            tool: 'get-structured-content',
            arguments: [{ name: 'location', value: 'Chicago' }],
          },
          position: { x: 300, y: 200 },
        },
        {
          id: 'result',
          type: 'output',
          config: { returnValues: [{ id: 'r0', text: '' }] },
          position: { x: 600, y: 100 },
        },
      ],
      edges: ['input>measure', 'input>weather', 'measure>result', 'weather>result'],
    }),
    name: 'Caller',
  });
  // Opening the flow connects to no server: only a node being edited asks what its callees return.
  await expect(card(page, 'weather')).toBeVisible();
  await page.waitForTimeout(500);
  expect(serverAsks).toBe(0);
  await typeInResult(page, '{{nodes.measure.output.');
  await expect(completion(page, 'nodes.measure.output.shout')).toContainText('string or null');
  await expect(completion(page, 'nodes.measure.output.original')).toBeVisible();
  await page.keyboard.press('Escape');
  release();
  // Starting server-everything (through npx) can take seconds on a loaded machine.
  await expect(async () => {
    await page.keyboard.type(' {{nodes.weather.output.');
    await expect(completion(page, 'nodes.weather.output.humidity')).toContainText('number: Humidity percentage', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
});
