import { buildFlow, input, llm, output, template } from '../helpers/flow-builder';
import { consoleErrors, expect, laidOutEcho, openFlow, test, withDatabase } from './fixtures';

const everyKind = {
  ...buildFlow({
    id: 'every-kind',
    parameters: [{ name: 'question', type: 'string' }],
    nodes: [
      { ...input(), label: 'Question', position: { x: 0, y: 120 } },
      { ...template('frame', 'Answer briefly: {{inputs.question}}'), label: 'Frame', position: { x: 300, y: 120 } },
      {
        ...llm('answer', '{{nodes.frame.output}}', { model: 'gpt-4o-mini' }),
        label: 'Answer',
        position: { x: 600, y: 120 },
      },
      {
        id: 'check',
        type: 'condition',
        label: 'Long?',
        position: { x: 900, y: 120 },
        config: { rules: [{ value: '{{nodes.answer.output}}', operator: 'contains', operand: 'long' }] },
      },
      { ...output('{{nodes.answer.output}}'), label: 'Result', position: { x: 1200, y: 120 } },
    ],
    edges: ['input>frame', 'frame>answer', 'answer>check', 'check.true>result'],
  }),
  name: 'Every kind',
};

test('node cards: an icon per type, a clear title, the key setting, the status as an icon (issue 17, point 8)', async ({
  page,
  served,
}) => {
  await page.setViewportSize({ width: 1900, height: 900 });
  await openFlow(page, served, everyKind);
  const card = (id: string) => page.getByTestId(`rf__node-${id}`);
  const icons = new Set<string>();
  for (const [id, title, type] of [
    ['input', 'Question', 'Input · input'],
    ['frame', 'Frame', 'Template · frame'],
    ['answer', 'Answer', 'LLM · answer'],
    ['check', 'Long?', 'Condition · check'],
    ['result', 'Result', 'Output · result'],
  ] as const) {
    await expect(card(id).locator('.fb-node-label')).toHaveText(title);
    await expect(card(id).locator('.fb-node-type')).toHaveText(type);
    icons.add((await card(id).locator('.fb-node-icon svg').getAttribute('class')) ?? '');
  }
  // Five types, five different drawings.
  expect(icons.size).toBe(5);
  // The setting that matters most: the model of an llm node, the rule of a condition.
  await expect(card('answer').locator('.fb-node-summary')).toContainText('gpt-4o-mini');
  await expect(card('check').locator('.fb-node-summary')).toContainText('contains "long"');
  await expect(card('check').locator('.port-label')).toHaveText(['true', 'false']);
  await page.screenshot({ path: test.info().outputPath('cards.png') });
});

test('one set of design tokens serves both themes; a run shows each status as an icon (issue 17, point 8)', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(laidOutEcho()));
  const tokens = async () =>
    page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      const card = getComputedStyle(document.querySelector('.fb-node') as Element);
      return {
        space: root.getPropertyValue('--space-2').trim(),
        radius: root.getPropertyValue('--radius-m').trim(),
        panel: root.getPropertyValue('--panel').trim(),
        cardRadius: card.borderTopLeftRadius,
        cardBackground: card.backgroundColor,
      };
    });
  const seen: Record<string, Awaited<ReturnType<typeof tokens>>> = {};
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${served.editorUrl}#/flow/echo`);
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByLabel(/^message/).fill('hello');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    for (const id of ['input', 'say', 'result']) {
      await expect(page.getByTestId(`rf__node-${id}`).getByRole('img', { name: 'succeeded' })).toBeVisible();
    }
    seen[colorScheme] = await tokens();
    await page.screenshot({ path: test.info().outputPath(`run-${colorScheme}.png`) });
  }
  // The same spacing and radius scale; only colours change with the theme.
  expect(seen.light?.space).toBe('8px');
  expect(seen.dark?.space).toBe('8px');
  expect(seen.light?.cardRadius).toBe(seen.light?.radius);
  expect(seen.dark?.cardRadius).toBe(seen.dark?.radius);
  expect(seen.light?.panel).not.toBe(seen.dark?.panel);
  expect(seen.light?.cardBackground).not.toBe(seen.dark?.cardBackground);
});

test('the home screen and the editor open without a console error: nothing the CSP refuses runs', async ({
  page,
  served,
}) => {
  const errors = consoleErrors(page);
  await page.goto(served.editorUrl);
  await expect(page.getByRole('button', { name: 'New flow' })).toBeVisible();
  await openFlow(page, served, everyKind);
  await expect(page.locator('.react-flow__node')).toHaveCount(everyKind.nodes.length);
  await page.locator('.react-flow__node').filter({ hasText: 'Answer' }).first().click();
  await expect(page.getByLabel('Inspector')).toBeVisible();
  // The inspector's code editor (CodeMirror, its own chunk, adding its own styles) has loaded and drawn.
  await expect(page.locator('.template-editor .cm-editor').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('a node selected by a click shows its outline (it is focused too); one reached by Tab shows focus', async ({
  page,
  served,
}) => {
  await openFlow(page, served, everyKind);
  const outline = (id: string) =>
    page.getByTestId(`rf__node-${id}`).evaluate((node) => {
      const style = getComputedStyle(node);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
  expect(await outline('answer')).toMatch(/^none /);
  await page.getByTestId('rf__node-answer').click();
  await expect(page.getByTestId('rf__node-answer')).toBeFocused();
  expect(await outline('answer')).toBe('solid 2px');
  // The keyboard moves focus to the next card, which shows it without being selected.
  await page.keyboard.press('Tab');
  const focused = page.locator('.react-flow__node:focus');
  await expect(focused).toHaveCount(1);
  const id = (await focused.getAttribute('data-id')) as string;
  expect(id).not.toBe('answer');
  expect(await outline(id)).toBe('dashed 2px');
});
