import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

const noteTaker = {
  ...buildFlow({
    id: 'note-taker',
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('note', 'Write a note.'), position: { x: 320, y: 100 } },
      {
        ...output('{{nodes.note.output}}'),
        config: {
          returnValues: [{ id: 'r0', text: '{{nodes.note.output}}' }],
          summaryFields: [{ label: 'latest note', value: '{{nodes.note.output}}' }],
        },
        position: { x: 640, y: 100 },
      },
    ],
    edges: ['input>note', 'note>result'],
  }),
  name: 'Note taker',
};

test("a node's memory write keeps each answer across runs; the flow's Memory section shows and clears them (issue 15, point 2)", async ({
  page,
  served,
  localModel,
}) => {
  let notes = 0;
  const model = await localModel(() => ({ content: `note ${++notes}` }));
  await openFlow(page, served, noteTaker);
  await page.getByTestId('rf__node-note').click();
  await page.getByRole('button', { name: 'Add memory write' }).click();
  await page.getByRole('button', { name: 'Add memory read' }).click();
  await expectSaved(page);
  expect(storedFlow(served.db, 'note-taker').nodes.find((n) => n.id === 'note')?.config).toMatchObject({
    memoryReads: [{ channel: 'memory', limit: 10 }],
    memoryWrites: [{ channel: 'memory', mode: 'AGENT_OUTPUT' }],
  });

  await page.getByRole('tab', { name: 'Run' }).click();
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
  }
  // The output's summary fields show under the run's status.
  await expect(page.getByLabel('Run summary')).toContainText('latest note');
  await expect(page.getByLabel('Run summary')).toContainText('note 2');
  // The second run's model call got the first run's answer before its prompt.
  expect(model.requests[1]?.body.messages?.[0]).toEqual({
    role: 'user',
    content: 'Memory "memory", the last 1 entry, oldest first:\n- note 1',
  });

  await page.locator('.react-flow__pane').click({ position: { x: 450, y: 60 } });
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const memory = page.getByLabel('Memory', { exact: true });
  await expect(memory).toContainText('2 entries · read by note · written by note');
  await memory.locator('summary').click();
  await expect(memory.getByLabel('Entries of memory')).toContainText('note 1');
  await expect(memory.getByLabel('Entries of memory')).toContainText('note 2');
  await memory.locator('#memory-memory-retentionDays').fill('30');
  await expectSaved(page);
  expect(storedFlow(served.db, 'note-taker').memory).toEqual({ channels: [{ id: 'memory', retentionDays: 30 }] });
  await memory.getByRole('button', { name: 'Clear memory…' }).click();
  await memory.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(memory).toContainText('0 entries');
});
