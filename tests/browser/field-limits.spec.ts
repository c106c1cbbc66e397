import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

const flow = {
  ...buildFlow({
    id: 'limits',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...template('say', 'About {{inputs.topic}}'), label: 'Say', position: { x: 320, y: 100 } },
      { ...output('{{nodes.say.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>say', 'say>result'],
  }),
  name: 'Limits',
};

test("a field stops at its length, and a text over a field's limit is said, not thrown at the page", async ({
  page,
  served,
}) => {
  await openFlow(page, served, flow);
  await page.locator('.react-flow__node[data-id="say"]').click();
  const label = page.locator('#node-label');
  await label.fill('a'.repeat(199));
  // Before, each key past the 200th threw a ZodError at the page, uncaught (checked by the fixture).
  await label.pressSequentially('bcd');
  await expect(label).toHaveValue(`${'a'.repeat(199)}b`);
  await expectSaved(page);
  expect(storedFlow(served.db, 'limits').nodes.find((n) => n.id === 'say')?.label).toBe(`${'a'.repeat(199)}b`);
});
