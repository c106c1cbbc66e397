import type { Locator } from '@playwright/test';
import { expect, expectSaved, laidOutEcho, openFlow, storedFlow, test, withDatabase } from './fixtures';

test('versions: what the draft changed since it was published, a version shown read-only, restored, and undone', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'versioned', name: 'Versioned', tool: { name: 'versioned' } }));
  // Published as version 1, then the draft changed: the prompt edited, a node added.
  withDatabase(served.db, (services) => {
    services.versions.publish('versioned', 'first cut');
    services.flows.applyChanges('versioned', {
      addNodes: [{ id: 'extra', type: 'template', label: 'Extra step', position: { x: 300, y: 300 } }],
      updateNodes: [{ id: 'say', config: { template: 'You wrote: {{inputs.message}}' } }],
    });
  });
  await page.reload();
  await expect(page.locator('.fb-node')).toHaveCount(4);
  const publish = page.getByRole('button', { name: /^Publish/ });
  await expect(publish).toHaveText('Publish (v2)');

  // Nothing selected: the flow settings list the versions and what changed since the latest.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  const versions = page.getByRole('region', { name: 'Versions' });
  await expect(versions.getByRole('listitem').filter({ hasText: 'v1' })).toContainText('first cut');
  const changes = versions.getByTestId('draft-changes');
  await expect(changes).toContainText('Draft changes since version 1');
  await expect(changes.getByRole('listitem').filter({ hasText: 'Changed' })).toHaveText('Changed: say (template)');
  await expect(changes.getByRole('listitem').filter({ hasText: 'Added' })).toHaveText('Added: Extra step');
  // A node named there is a link to it on the canvas.
  await changes.getByRole('button', { name: 'Extra step' }).click();
  await expect(page.getByTestId('rf__node-extra')).toHaveClass(/selected/);

  // Show: version 1 over the canvas, read-only, without the node added since.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await versions.getByRole('button', { name: 'Show' }).click();
  const banner = page.getByTestId('past-version');
  await expect(banner).toContainText('Showing version 1 as it was published: read-only.');
  await expect(page.locator('.fb-node')).toHaveCount(3);
  await expect(page.getByTestId('rf__node-say')).toContainText('You said');
  await page.getByTestId('rf__node-say').click();
  // The inspector shows the node as it is in the version (not the draft's), and takes no typing.
  await expect(page.getByRole('note')).toHaveText(
    'Read-only: this node as it is in version 1. Back to the draft to edit it.',
  );
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveText('You said: {{inputs.message}}');
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveAttribute(
    'contenteditable',
    'false',
  );
  await expect(page.getByLabel('Label', { exact: true })).toBeDisabled();
  await page.keyboard.press('Delete');
  await expect(page.getByRole('status').filter({ hasText: 'This is version 1, shown read-only' })).toBeVisible();
  await expect(page.locator('.fb-node')).toHaveCount(3);

  // Back to the draft, then Restore from the banner: the draft becomes version 1, stored, as one edit.
  await banner.getByRole('button', { name: 'Back to the draft' }).click();
  await expect(page.locator('.fb-node')).toHaveCount(4);
  // The same node, back in the draft: its own prompt, editable again.
  await page.getByTestId('rf__node-say').click();
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveText(
    'You wrote: {{inputs.message}}',
  );
  await expect(page.getByTestId('template-template').locator('.cm-content')).toHaveAttribute('contenteditable', 'true');
  await expect(page.getByRole('note')).toHaveCount(0);
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await versions.getByRole('button', { name: 'Show' }).click();
  await banner.getByRole('button', { name: 'Restore this version' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.locator('.fb-node')).toHaveCount(3);
  await expect(page.getByTestId('rf__node-say')).toContainText('You said');
  await expectSaved(page);
  const restored = storedFlow(served.db, 'versioned');
  expect(restored.nodes.map((n) => n.id).sort()).toEqual(['input', 'result', 'say']);
  expect(restored.nodes.find((n) => n.id === 'say')?.config.template).toBe('You said: {{inputs.message}}');
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await expect(versions).toContainText('The draft is what version 1 is.');
  // Decided by content, not by time: edited since, but what clients get. Nothing to publish, here or in lists.
  await expect(publish).toHaveText('Published (v1)');
  await expect(publish).toBeDisabled();
  const listed = () => withDatabase(served.db, (services) => services.flowService.summary('versioned'));
  expect(listed().hasUnpublishedChanges).toBe(false);

  // One Undo takes the whole restore back.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.fb-node')).toHaveCount(4);
  await expect(page.getByTestId('rf__node-say')).toContainText('You wrote');
  await expectSaved(page);
  expect(storedFlow(served.db, 'versioned').nodes).toHaveLength(4);
  await expect(publish).toHaveText('Publish (v2)');
  expect(listed().hasUnpublishedChanges).toBe(true);

  // Typed back as version 1 has it: nothing to publish again, and the host says so when the flow opens.
  await page.getByTestId('rf__node-say').click();
  const template = page.getByTestId('template-template').locator('.cm-content');
  await template.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('You said: {{inputs.message}}');
  await page.getByTestId('rf__node-extra').click();
  await page.keyboard.press('Delete');
  await expect(publish).toHaveText('Published (v1)');
  await expectSaved(page);
  await page.reload();
  await expect(page.locator('.fb-node')).toHaveCount(3);
  await expect(publish).toHaveText('Published (v1)');
});

test('versions: a flow never published says so', async ({ page, served }) => {
  await openFlow(page, served, laidOutEcho({ id: 'fresh', name: 'Fresh', tool: { name: 'fresh' } }));
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await expect(page.getByRole('region', { name: 'Versions' })).toContainText('Not published yet');
});

test('versions: a version shown has its own flow settings and parameters, read-only, and its connections can be followed', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho({ id: 'shown', name: 'Shown', tool: { name: 'shown' } }));
  // Published as version 1; the draft's description and first parameter changed since.
  withDatabase(served.db, (services) => {
    services.versions.publish('shown', '');
    const [first, ...rest] = services.flows.get('shown').parameters;
    services.flows.applyChanges('shown', {
      flow: { description: 'Echoes, in other words.', parameters: [{ ...first!, name: 'text' }, ...rest] },
      updateNodes: [{ id: 'say', config: { template: 'You wrote: {{inputs.text}}' } }],
    });
  });
  await page.reload();
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  const description = page.locator('#flow-description');
  await expect(description).toHaveValue('Echoes, in other words.');
  /** How the field is drawn: a read-only one has no fill and a dashed edge, unlike one that takes typing. */
  const drawn = (field: Locator) =>
    field.evaluate(
      (element) => `${getComputedStyle(element).backgroundColor} ${getComputedStyle(element).borderStyle}`,
    );
  const editable = await drawn(description);
  expect(editable).not.toContain('dashed');

  await page.getByRole('region', { name: 'Versions' }).getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('past-version')).toBeVisible();
  // Nothing selected: version 1's settings, not the draft's, and no typing.
  await expect(page.getByRole('note')).toHaveText(
    "Read-only: the flow's settings as they are in version 1. Back to the draft to edit them.",
  );
  await expect(description).toHaveValue('Echoes a message.');
  await expect(description).toBeDisabled();
  expect(await drawn(description)).toBe('rgba(0, 0, 0, 0) dashed');
  await expect(page.getByLabel('Parameter 1 name')).toHaveValue('message');
  // The versions list is the draft's, and works over the version shown.
  await expect(page.getByRole('region', { name: 'Versions' }).getByRole('button', { name: 'Show' })).toBeEnabled();

  // The template node's connections: followed, not removed or added.
  await page.getByTestId('rf__node-say').click();
  const connections = page.getByRole('region', { name: 'Connections' });
  await expect(connections.getByRole('button', { name: /^Remove the edge/ })).toHaveCount(0);
  await expect(connections.getByRole('searchbox', { name: 'Connect to' })).toHaveCount(0);
  await connections.getByRole('button', { name: 'input', exact: true }).click();
  await expect(page.getByTestId('rf__node-input')).toHaveClass(/selected/);
  // The Input node shows version 1's parameters, read-only.
  await expect(page.getByLabel('Parameter 1 name')).toHaveValue('message');
  await expect(page.getByLabel('Parameter 1 name')).toBeDisabled();
  expect(await drawn(page.getByLabel('Parameter 1 name'))).toBe('rgba(0, 0, 0, 0) dashed');

  // Back to the draft: the draft's, editable.
  await page.getByTestId('past-version').getByRole('button', { name: 'Back to the draft' }).click();
  await expect(page.getByLabel('Parameter 1 name')).toHaveValue('text');
  await expect(page.getByLabel('Parameter 1 name')).toBeEnabled();
  expect(await drawn(page.getByLabel('Parameter 1 name'))).toBe(editable);
});

test('versions: each version says what it changed since the one before', async ({ page, served }) => {
  await openFlow(page, served, laidOutEcho({ id: 'history', name: 'History', tool: { name: 'history' } }));
  withDatabase(served.db, (services) => {
    services.versions.publish('history', 'first');
    services.flows.applyChanges('history', {
      updateNodes: [{ id: 'say', label: 'Say it', config: { template: 'Hi {{inputs.message}}' } }],
    });
    services.versions.publish('history', 'second');
    services.versions.publish('history', 'again');
  });
  await page.reload();
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  // Newest first: v3, v2, v1. Version 1 has nothing before it.
  const rows = page.getByRole('region', { name: 'Versions' }).locator('.versions > li');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2).getByRole('button', { name: 'Changes' })).toHaveCount(0);

  await rows.nth(1).getByRole('button', { name: 'Changes' }).click();
  const changes = rows.nth(1).getByTestId('version-changes');
  await expect(changes).toContainText('Changes since version 1:');
  await expect(changes.getByRole('listitem')).toHaveText(['Changed: Say it (label, template)']);
  // One open at a time; a version published again unchanged says so.
  await rows.nth(0).getByRole('button', { name: 'Changes' }).click();
  await expect(changes).toHaveCount(0);
  await expect(rows.nth(0)).toContainText('The same as version 2: published again unchanged.');
  await rows.nth(0).getByRole('button', { name: 'Changes' }).click();
  await expect(rows.nth(0)).not.toContainText('published again unchanged');
});
