import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { llmFlow } from '../helpers/flows';
import { runCli } from '../helpers/cli';
import { expect, openFlow, pasteInto, test } from './fixtures';
import { tinyPng } from '../helpers/images';

const typed = {
  ...buildFlow({
    id: 'typed',
    parameters: [
      { name: 'name', type: 'string' },
      { name: 'count', type: 'integer', required: false, default: 2 },
      { name: 'loud', type: 'boolean', required: false },
      { name: 'mood', type: 'enum', enum: ['calm', 'cross'] },
      { name: 'extra', type: 'object', required: false },
    ],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        ...template('say', '{{inputs.name}}/{{inputs.count}}/{{inputs.loud}}/{{inputs.mood}}'),
        position: { x: 320, y: 100 },
      },
      { ...output('{{nodes.say.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>say', 'say>result'],
  }),
  name: 'Typed',
};

test('the Run form has a widget per parameter type and checks values before sending (issue 16, point 1 in part)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, typed);
  await page.getByRole('tab', { name: 'Run' }).click();
  // A choice is a choice; a default is shown where it applies.
  await expect(page.locator('#run-input-loud option')).toHaveText(['not given', 'true', 'false']);
  await expect(page.locator('#run-input-mood option')).toHaveText(['choose…', 'calm', 'cross']);
  await expect(page.locator('#run-input-count')).toHaveAttribute('placeholder', '2');
  await expect(page.locator('textarea#run-input-extra')).toBeVisible();

  // A wrong value is said at its field as it is typed.
  await page.locator('#run-input-count').fill('two');
  await expect(page.locator('#run-input-count-problem')).toHaveText('expected an integer');
  await page.locator('#run-input-extra').fill('[1, 2]');
  await expect(page.locator('#run-input-extra-problem')).toHaveText('expected an object');

  // Ctrl+Enter with required values missing: nothing is sent, each field says why.
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('#run-input-name-problem')).toHaveText('required');
  await expect(page.locator('#run-input-mood-problem')).toHaveText('required');
  await expect(page.getByTestId('run-result')).toHaveCount(0);

  await page.locator('#run-input-name').fill('Ada');
  await page.locator('#run-input-count').fill('3');
  await page.locator('#run-input-loud').selectOption('true');
  await page.locator('#run-input-mood').selectOption('calm');
  await page.locator('#run-input-extra').fill('{"k": 1}');
  await expect(page.locator('.run-panel .error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
    'Ada/3/true/calm',
  ]);
});

test("after a reload the Run tab lists the flow's runs, the CLI's too, and opens one (issue 16, point 4 in part)", async ({
  page,
  served,
}) => {
  await openFlow(page, served, typed);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-name').fill('Ada');
  await page.locator('#run-input-mood').selectOption('cross');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // Each run listed is a button that opens it (beside it, one that deletes it).
  const recent = page.getByRole('region', { name: 'Recent runs' }).locator('button.link');
  await expect(recent).toHaveCount(1);
  // A run from another process on the same database.
  const cli = await runCli(['--db', served.db, 'run', 'typed', '--input', 'name=Bo', '--input', 'mood=calm']);
  expect(cli.code).toBe(0);

  await page.reload();
  await page.getByRole('tab', { name: 'Run' }).click();
  await expect(recent).toHaveCount(2);
  await expect(recent.first()).toContainText('succeeded · cli');
  await expect(recent.nth(1)).toContainText('succeeded · editor');

  await recent.nth(1).click();
  await expect(page.locator('.run-origin')).toContainText('A stored run from editor');
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
    // An optional value not given renders empty.
    'Ada/2//cross',
  ]);
  await expect(page.getByTestId('rf__node-say').getByRole('img', { name: 'succeeded' })).toBeVisible();
  await page.getByRole('button', { name: 'Use its inputs' }).click();
  await expect(page.locator('#run-input-name')).toHaveValue('Ada');
  await expect(page.locator('#run-input-mood')).toHaveValue('cross');
  await page.screenshot({ path: test.info().outputPath('recent-runs.png') });
});

test('text pasted into the Run form keeps its line breaks: the run gets the text as pasted, and the box grows to show it', async ({
  page,
  served,
}) => {
  await openFlow(page, served, typed);
  await page.getByRole('tab', { name: 'Run' }).click();
  const name = page.locator('#run-input-name');
  const oneLine = (await name.boundingBox())?.height ?? 0;
  const pasted = 'Ada Lovelace\n\nAnalyst, and the first programmer.';
  await pasteInto(name, pasted);
  // A single-line box turned each line break into a space.
  await expect(name).toHaveValue(pasted);
  expect((await name.boundingBox())?.height).toBeGreaterThan(2 * oneLine);
  await page.locator('#run-input-mood').selectOption('calm');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
    `${pasted}/2//calm`,
  ]);
  await page.screenshot({ path: test.info().outputPath('pasted-lines-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('pasted-lines-dark.png') });
});

test('a picture attached to a text input shows in the Run form and reaches the model as an image beside the prompt', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: 'A single pixel.' }));
  await openFlow(
    page,
    served,
    llmFlow(
      { id: 'describe', name: 'Describe', parameter: { name: 'photo', type: 'string' } },
      { id: 'look', prompt: 'What is in {{inputs.photo}}?' },
    ),
  );
  await page.getByRole('tab', { name: 'Run' }).click();
  const png = tinyPng();
  await page
    .getByLabel('Attach an image to photo')
    .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('img', { name: 'the image given as photo' })).toBeVisible();
  await expect(page.locator('.attached-image')).toContainText(`image/png, ${png.length} B, sent as its data: URL`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  expect(model.requests[0]?.body.messages?.at(-1)?.content).toEqual([
    { type: 'text', text: 'What is in [image 1]?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ]);
  // Remove gives the text box back, empty.
  await page.locator('.attached-image').getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('#run-input-photo')).toHaveValue('');
});
