import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { startOpenAiServer } from '../helpers/openai-server';
import { expect, openFlow, test, withDatabase } from './fixtures';

/** Two model calls in a row, laid out side by side: the second reuses what the first wrote. */
const twoCalls = {
  ...buildFlow({
    id: 'two-calls',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('summarise', 'Summarise: {{inputs.text}}'), label: 'Summarise', position: { x: 320, y: 100 } },
      { ...llm('title', 'Title for: {{nodes.summarise.output}}'), label: 'Title', position: { x: 640, y: 100 } },
      { ...output('{{nodes.title.output}}'), position: { x: 960, y: 100 } },
    ],
    edges: ['input>summarise', 'summarise>title', 'title>result'],
  }),
  name: 'Two calls',
};

test('run from here: only the selected node and what depends on it call the model again (issue 16, point 5)', async ({
  page,
  served,
}) => {
  let summaries = 0;
  const model = await startOpenAiServer((request) => {
    const prompt = JSON.stringify(request.body.messages?.at(-1)?.content ?? '').slice(1, -1);
    if (prompt.startsWith('Title for:')) return { content: `Title of (${prompt.slice('Title for: '.length)})` };
    return { content: `summary ${++summaries}` };
  });
  try {
    withDatabase(served.db, (services) =>
      services.providers.set(
        { name: 'local', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'test-model' },
        true,
      ),
    );
    await openFlow(page, served, twoCalls);
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.locator('#run-input-text').fill('Otters hold hands.');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const result = page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre');
    await expect(result).toHaveText(['Title of (summary 1)']);
    expect(model.requests).toHaveLength(2);

    await expect(page.locator('.run-from-hint')).toBeVisible();
    await page.locator('.react-flow__node[data-id="title"]').click();
    await page.getByRole('button', { name: 'Run from “Title”' }).click();
    await expect(page.getByTestId('run-reuse')).toContainText('Run from Title, reusing 2 outputs of run');
    await expect(result).toHaveText(['Title of (summary 1)']);
    // The server's request log: the summary was not asked for again, the title was.
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]?.body.messages?.at(-1)?.content).toBe('Title for: summary 1');
    await expect(page.locator('.step', { hasText: 'Summarise' }).locator('.step-reused')).toHaveText('reused');
    await expect(page.locator('.step', { hasText: 'Title' }).locator('.step-reused')).toHaveCount(0);
  } finally {
    await model.close();
  }
});
