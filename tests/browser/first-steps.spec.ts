import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { echoFlow } from '../fixtures/mcp-flows';
import { expect, expectSaved, laidOutEcho, openFlow, test, withDatabase } from './fixtures';

test('an empty home screen offers the example flows (issue 17, point 7)', async ({ page, served }) => {
  await page.clock.install();
  await page.goto(served.editorUrl);
  await expect(page.getByText('No flows yet')).toBeVisible();
  await page.getByRole('button', { name: 'add the example flows' }).click();
  await expect(page.locator('[data-testid^="flow-row-"]')).toHaveCount(3);
  await expect(page.getByTestId('flow-row-triage_ticket')).toBeVisible();
  // When each was last changed, as the lists of n8n and Langflow say it: how long ago, the exact time on hover.
  const updated = page.getByTestId('flow-row-triage_ticket').locator('time');
  await expect(updated).toHaveText(/^(now|\d+ seconds? ago)$/);
  const exact = await updated.evaluate((time: HTMLTimeElement) => ({
    iso: time.dateTime,
    titleIsExact: time.title === new Date(time.dateTime).toLocaleString(),
  }));
  expect(Math.abs(Date.parse(exact.iso) - Date.now())).toBeLessThan(60_000);
  expect(exact.titleIsExact).toBe(true);
  // "N seconds ago" is one line, and every cell of the row ends where the row does (its dividing line is whole).
  expect(await updated.evaluate((time) => time.getClientRects().length)).toBe(1);
  const bottoms = await page
    .getByTestId('flow-row-triage_ticket')
    .locator('td')
    .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().bottom)));
  expect(new Set(bottoms).size).toBe(1);
  // Left open, the list keeps counting.
  await page.clock.fastForward('02:00');
  await expect(updated).toHaveText('2 minutes ago');

  // The triage example explains itself in a sticky note, in view as it opens.
  await page.goto(`${served.editorUrl}#/flow/example-triage-ticket`);
  const note = page.getByTestId('rf__node-note:note_1');
  await expect(note.locator('strong').first()).toHaveText('How it works');
  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const box = (await note.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(pane.x);
  expect(box.y + box.height).toBeLessThanOrEqual(pane.y + pane.height);
});

test("new flow and rename use the app's own dialog, by keyboard (issue 17, point 6)", async ({ page, served }) => {
  withDatabase(served.db, (services) => services.flows.create(echoFlow));
  await page.goto(served.editorUrl);
  // No browser dialog may open: Electron has none.
  page.on('dialog', (dialog) => {
    throw new Error(`a browser dialog opened: ${dialog.message()}`);
  });

  await page.getByTestId('flow-row-echo_tool').getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename “Echo”' });
  await expect(rename.getByLabel('Name')).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('rename-dialog.png') });
  await page.keyboard.type('Echo back');
  await page.keyboard.press('Enter');
  await expect(rename).toHaveCount(0);
  await expect(page.getByTestId('flow-row-echo_tool')).toContainText('Echo back');

  // Escape closes without creating anything.
  await page.getByRole('button', { name: 'New flow' }).click();
  await expect(page.getByRole('dialog', { name: 'New flow' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New flow' })).toHaveCount(0);
  await expect(page.locator('[data-testid^="flow-row-"]')).toHaveCount(1);

  // An empty name cannot be confirmed; a real one creates the flow and opens it.
  await page.getByRole('button', { name: 'New flow' }).click();
  await page.getByRole('dialog', { name: 'New flow' }).getByLabel('Name').fill('  ');
  await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
  await page.getByRole('dialog', { name: 'New flow' }).getByLabel('Name').fill('Summarise notes');
  await page.keyboard.press('Enter');
  await expect(page.locator('.flow-title')).toHaveText('Summarise notes');
});

test('the Result select of an output node shows what each choice means (issue 17, point 7)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());
  await page.getByTestId('rf__node-result').click();
  const select = page.getByRole('combobox', { name: 'Result' });
  await expect(select.locator('option')).toHaveText(['Return values (text content)', 'Structured fields (JSON)']);
  await expect(select).toHaveValue('return_values');
});

test('Escape in a template field closes its completion and keeps the node selected (issue 17, point 7)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());
  await page.getByTestId('rf__node-say').click();
  await page.getByTestId('template-template').locator('.cm-content').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' {{');
  const completion = page.locator('.cm-tooltip-autocomplete');
  await expect(completion).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(completion).toHaveCount(0);
  await expect(page.getByLabel('Label')).toBeVisible();
  // A second Escape leaves the field, still on the same node; a third deselects it.
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Label')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Label')).toHaveCount(0);
});

test('publishing says what it means: never published, the version clients get, and a draft that equals it (issue 17, point 5)', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(laidOutEcho()));
  await page.goto(served.editorUrl);
  await expect(page.getByTestId('published-echo_tool')).toHaveText('never published: clients do not see it yet');

  await page.getByRole('link', { name: 'Echo' }).click();
  const publish = page.getByRole('button', { name: /^Publish/ });
  await expect(publish).toHaveText('Publish');
  // Publishing asks for a note, kept with the version; Enter publishes.
  await publish.click();
  const first = page.getByRole('dialog', { name: 'Publish version 1' });
  await expect(first).toContainText('MCP clients get this flow as the tool echo_tool once it is published.');
  await first.getByLabel(/^Note/).fill('first cut');
  await first.getByLabel(/^Note/).press('Enter');
  await expect(page.getByRole('button', { name: 'Published (v1)' })).toBeDisabled();
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await expect(page.getByRole('region', { name: 'Versions' }).getByRole('listitem')).toContainText('first cut');

  await page.getByTestId('rf__node-say').click();
  await page.getByLabel('Label').fill('said');
  await expect(page.getByRole('button', { name: 'Publish (v2)' })).toBeEnabled();
  await expectSaved(page);
  // The next one says what clients would get that is new; Cancel keeps the draft a draft.
  await page.getByRole('button', { name: 'Publish (v2)' }).click();
  const second = page.getByRole('dialog', { name: 'Publish version 2' });
  await expect(second.getByTestId('draft-changes')).toContainText('Changed: said (label)');
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(second).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish (v2)' })).toBeEnabled();
  await page.getByRole('link', { name: '← Flows' }).click();
  await expect(page.getByTestId('published-echo_tool')).toHaveText('published v1, draft changed since');
});

test('a parameter description gets the width of the panel and wraps (issue 17, point 7)', async ({ page, served }) => {
  await openFlow(page, served, echoFlow);
  const description = page.getByLabel('Parameter 1 description');
  const text = 'The message to echo back, exactly as the person wrote it, including punctuation and emoji.';
  await description.fill(text);
  await expect(description).toHaveValue(text);
  const field = await description.boundingBox();
  const block = await description.locator('xpath=..').boundingBox();
  expect(field && block && field.width / block.width).toBeGreaterThan(0.9);
  // Wrapped, not cut: the text fits in the box's two lines.
  expect(await description.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('publishing asks first when a client would get a flow without a tool description (issue 17, point 5)', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) =>
    services.flows.create(laidOutEcho({ description: '', tool: { ...echoFlow.tool, description: '' } })),
  );
  await page.goto(`${served.editorUrl}#/flow/echo`);
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish version 1' });
  await expect(dialog).toContainText('the tool has no description');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeEnabled();

  await page.getByRole('button', { name: 'Publish' }).click();
  await dialog.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page.getByRole('button', { name: 'Published (v1)' })).toBeDisabled();
});

test('a refused import lists its problems in a dialog that stays until it is closed (issue 17, point 2)', async ({
  page,
  served,
}) => {
  await page.goto(served.editorUrl);
  const broken = {
    ...laidOutEcho(),
    nodes: [...laidOutEcho().nodes, { id: 'say', type: 'template', config: { template: 'twice' } }],
  };
  await page.getByTestId('import-file').setInputFiles({
    name: 'broken.flowbench.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  });
  const dialog = page.getByRole('dialog', { name: 'Not imported' });
  await expect(dialog).toContainText('broken.flowbench.json was not imported');
  await expect(dialog).toContainText('two nodes have the id "say"');
  // A toast would be gone by now; the dialog is not.
  await page.waitForTimeout(6000);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('No flows yet')).toBeVisible();
});

test('a flow exports from the list in each format Flowbench writes, as the CLI does; one a format cannot say is refused, saying why', async ({
  page,
  served,
}) => {
  await page.goto(served.editorUrl);
  await page.getByRole('button', { name: 'add the example flows' }).click();
  const row = page.getByTestId('flow-row-summarise_then_title');
  const exportAs = async (label: string) => {
    await row.getByRole('button', { name: 'Export ▾' }).click();
    await row.getByRole('menu').getByRole('menuitem', { name: label }).click();
  };
  const downloaded = async (label: string) => {
    const [download] = await Promise.all([page.waitForEvent('download'), exportAs(label)]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };

  const native = await downloaded('Flowbench JSON (keeps everything)');
  expect(native.name).toBe('summarise_then_title.flowbench.json');
  expect(JSON.parse(native.text)).toMatchObject({
    name: 'Summarise then title',
    tool: { name: 'summarise_then_title' },
  });
  const yaml = await downloaded('Multi-agent flow definition, YAML');
  expect(yaml.name).toBe('summarise_then_title.yaml');
  expect(parseYaml(yaml.text)).toMatchObject({
    flowId: 'summarise_then_title',
    steps: [{ id: 'summarise' }, { id: 'title' }],
  });
  await expect(row.getByRole('menu')).toHaveCount(0);

  await exportAs('FlowyPrompt JSON');
  await expect(page.getByRole('status')).toContainText(
    'FlowyPrompt has only input, template and result nodes; this flow also has llm "summarise", llm "title"',
  );

  // By keyboard: the list opens on its first item, the arrows walk it, Escape closes it.
  await row.getByRole('button', { name: 'Export ▾' }).click();
  const items = row.getByRole('menu').getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(row.getByRole('menu')).toHaveCount(0);
});
