import type { Page } from '@playwright/test';
import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { connect, expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

/** draft → review → approved?, laid out left to right; the person draws the loop back. */
const reviewFlow = {
  ...buildFlow({
    id: 'review-loop',
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('draft', 'Write a slogan.'), position: { x: 300, y: 100 } },
      { ...llm('review', 'Review: {{nodes.draft.output}}'), position: { x: 600, y: 100 } },
      {
        id: 'approved',
        type: 'condition',
        config: { rules: [{ value: '{{nodes.review.output}}', operator: 'contains', operand: 'APPROVED' }] },
        position: { x: 900, y: 100 },
      },
      { ...output('{{nodes.draft.output}}'), position: { x: 1200, y: 100 } },
    ],
    edges: ['input>draft', 'draft>review', 'review>approved', 'approved.true>result'],
  }),
  name: 'Review loop',
};

const card = (page: Page, id: string) => page.getByTestId(`rf__node-${id}`);

test('an edge drawn back is a loop with a limit the person sets; a run shows each pass (issue 15, point 4)', async ({
  page,
  served,
  localModel,
}) => {
  let drafts = 0;
  const model = await localModel((request) => {
    const text = String(request.body.messages?.at(-1)?.content);
    if (text.startsWith('Write')) return { content: `slogan ${++drafts}` };
    return { content: text.includes('slogan 2') ? 'APPROVED' : 'too long' };
  });
  await openFlow(page, served, reviewFlow);
  await expect(card(page, 'draft')).toBeVisible();
  await connect(page, 'approved', 'draft', { port: 'false' });
  await expect(page.getByText('That edge goes back, so it is a loop')).toBeVisible();
  const label = page.getByText('↻ loop, ≤ 3 passes');
  await expect(label).toBeVisible();
  await expectSaved(page);
  const loopEdge = () => storedFlow(served.db, 'review-loop').edges.find((e) => e.loop);
  expect(loopEdge()).toMatchObject({
    source: 'approved',
    sourcePort: 'false',
    target: 'draft',
    loop: { maxIterations: 3 },
  });

  // Selecting the edge shows its limit; typing a new one saves it.
  await page.locator('.react-flow__edge.edge-loop .react-flow__edge-textbg').click();
  await expect(page.getByRole('heading', { name: /^Loop/ })).toBeVisible();
  await page.locator('#loop-limit').fill('5');
  await expectSaved(page);
  expect(loopEdge()?.loop).toEqual({ maxIterations: 5 });
  await expect(page.getByText('↻ loop, ≤ 5 passes')).toBeVisible();
  await page.locator('#loop-limit').fill('1');
  await expect(page.getByRole('alert')).toContainText('a loop allows 2 to 1000 passes');

  // What a failure does is a node setting too.
  await card(page, 'review').click();
  await page.getByText('Retries, time limit and failure').click();
  await page.locator('#node-on-error').selectOption('continue');
  await expectSaved(page);
  expect(storedFlow(served.db, 'review-loop').nodes.find((n) => n.id === 'review')?.onError).toBe('continue');

  // The loop is among the draft node's connections too, and leads to its limit.
  await card(page, 'draft').click();
  await page
    .getByRole('region', { name: 'Connections' })
    .getByRole('button', { name: 'loop, 5 passes at most' })
    .click();
  await expect(page.getByRole('heading', { name: /^Loop/ })).toBeVisible();

  await page.getByRole('tab', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  // The run lists every pass; the card and the step details show the last one.
  await card(page, 'draft').click();
  await expect(page.getByLabel('Step details')).toContainText('pass 2');
  // From the loop's first node the loop runs again.
  await expect(page.getByRole('button', { name: 'Run from “draft”' })).toBeVisible();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await expect(card(page, 'draft')).toContainText('pass 2');
  await expect(page.locator('.steps .step-pass')).toHaveText(['pass 2', 'pass 2', 'pass 2']);
  await expect(page.getByLabel('What an MCP client receives')).toContainText('slogan 2');

  // From the middle of the loop there is no run from here; after it, the loop is reused as its last pass left it.
  await card(page, 'review').click();
  await expect(page.locator('.run-from-hint')).toHaveText(
    'No run from here: node "review" is inside the loop back from "approved" to "draft": run from "draft", where each pass starts, to run the loop again.',
  );
  const asked = model.requests.length;
  // Zoomed in above, the result card is a sliver at the canvas's edge, under the side panel's border
  // (fresh-clone CI once clicked beside it): the whole flow is put in view first, as a person would.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await card(page, 'result').click();
  await expect(card(page, 'result')).toHaveClass(/selected/);
  await page.getByRole('button', { name: 'Run from “result”' }).click();
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  await expect(page.getByLabel('What an MCP client receives')).toContainText('slogan 2');
  expect(model.requests).toHaveLength(asked);
});

test('a node put into a loop edge joins the loop as its last node, under it, the edge back keeping its passes; one Undo takes it back', async ({
  page,
  served,
}) => {
  const looped = {
    ...reviewFlow,
    edges: [
      ...(reviewFlow.edges ?? []),
      {
        id: 'again',
        source: 'approved',
        sourcePort: 'false',
        target: 'draft',
        targetPort: 'in',
        loop: { maxIterations: 4 },
      },
    ],
  };
  await openFlow(page, served, looped);
  await page.locator('.react-flow__edge.edge-loop .react-flow__edge-textbg').click();
  await page.getByRole('button', { name: 'Insert a node into this edge' }).click();
  await page
    .getByRole('dialog', { name: 'Insert a node into this edge' })
    .getByRole('button', { name: /^Template/ })
    .click();
  await expectSaved(page);
  const after = storedFlow(served.db, 'review-loop');
  const added = after.nodes.find((n) => n.type === 'template')!;
  expect(after.edges.filter((e) => e.source === 'approved' || e.target === 'draft')).toEqual([
    expect.objectContaining({ source: 'input', target: 'draft' }),
    expect.objectContaining({ source: 'approved', sourcePort: 'true', target: 'result' }),
    expect.objectContaining({ source: 'approved', sourcePort: 'false', target: added.id }),
    expect.objectContaining({ source: added.id, target: 'draft', loop: { maxIterations: 4 } }),
  ]);
  // After the loop's source and under it.
  const approved = after.nodes.find((n) => n.id === 'approved')!;
  expect(added.position.y).toBeGreaterThan(approved.position.y);
  expect(added.position.x).toBeGreaterThan(approved.position.x);
  await expect(page.getByText('↻ loop, ≤ 4 passes')).toBeVisible();

  await page.locator('.react-flow__pane').press('Control+z');
  await expectSaved(page);
  const undone = storedFlow(served.db, 'review-loop');
  expect(undone.nodes.map((n) => n.type)).not.toContain('template');
  expect(undone.edges.find((e) => e.loop)).toMatchObject({
    source: 'approved',
    target: 'draft',
    loop: { maxIterations: 4 },
  });
});
