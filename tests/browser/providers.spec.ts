import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { startOpenAiServer } from '../helpers/openai-server';
import { expect, openFlow, test, withDatabase } from './fixtures';

const oneCall = {
  ...buildFlow({
    id: 'one-call',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('answer', 'Say: {{inputs.text}}'), label: 'Answer', position: { x: 320, y: 100 } },
      { ...output('{{nodes.answer.output}}'), position: { x: 640, y: 100 } },
    ],
    edges: ['input>answer', 'answer>result'],
  }),
  name: 'One call',
};

test('first run: with no provider the home says so; a provider added from the screen, its model picked from the list, runs the flow (issue 16, point 7)', async ({
  page,
  served,
}) => {
  const model = await startOpenAiServer(() => ({ content: 'Hello from the local model.' }));
  try {
    await page.goto(served.editorUrl);
    await expect(page.getByTestId('no-provider')).toContainText('No model provider is set up yet');
    await page.getByTestId('no-provider').getByRole('link', { name: 'Set one up' }).click();
    await expect(page.getByRole('heading', { name: 'Model providers' })).toBeVisible();

    // A URL that is not a URL is refused at the field, before anything is sent…
    const form = page.getByRole('form', { name: 'Add a provider' });
    await page.locator('#provider-name').fill('local');
    await page.locator('#provider-url').fill('not a url');
    await page.getByRole('button', { name: 'Save provider' }).click();
    expect(await page.locator('#provider-url').evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).toBe(
      true,
    );
    // …and one that no request can go to, by the host, said in the form beside the button (the page's top is far up).
    await page.locator('#provider-url').fill('ftp://127.0.0.1/v1');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await expect(form.getByRole('alert')).toHaveText(/baseUrl: an http:\/\/ or https:\/\/ URL/);
    await expect(form.getByRole('alert')).toBeInViewport();
    withDatabase(served.db, (services) => expect(services.providers.list().map((p) => p.name)).not.toContain('local'));

    await page.locator('#provider-url').fill(model.url);
    await page.locator('#provider-key').fill('sk-secret-1234');
    // Enter in a field saves, as in any form.
    await page.locator('#provider-key').press('Enter');
    const row = page.getByRole('group', { name: 'Provider local' });
    await expect(row.locator('.badge')).toHaveText('default');
    await expect(row).toContainText('key: stored');
    await expect(page.locator('#provider-key')).toHaveValue('');
    await expect(page.locator('body')).not.toContainText('sk-secret-1234');

    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row.getByRole('list', { name: 'Models of local' }).getByRole('button')).toHaveText([
      'test-model',
      'other-model',
    ]);
    await row.getByRole('button', { name: 'other-model' }).click();
    await row.getByRole('button', { name: 'Save model' }).click();
    await expect(row.getByRole('button', { name: 'Save model' })).toHaveCount(0);

    // A price: a negative one is refused and nothing is stored; then one that runs will cost.
    const prices = page.getByRole('region', { name: 'Prices' });
    await prices.getByLabel('Priced model').fill('other-model');
    await prices.getByLabel('Input price').fill('-1');
    await prices.getByLabel('Output price').fill('3');
    await prices.getByRole('button', { name: 'Set price' }).click();
    await expect(prices.getByRole('alert')).toContainText('a price cannot be negative');
    withDatabase(served.db, (services) => expect(services.providers.prices().prices).toEqual([]));
    await prices.getByLabel('Input price').fill('1000');
    await prices.getByRole('button', { name: 'Set price' }).click();
    await expect(prices.locator('tr')).toContainText(['other-model']);

    await openFlow(page, served, oneCall);
    // The inspector offers the providers and the provider's models (free text still allowed).
    await page.getByTestId('rf__node-answer').click();
    await expect(page.getByTestId('field-provider-choices').locator('option')).toHaveCount(5);
    await expect(page.getByTestId('field-model-choices').locator('option')).toHaveCount(2);
    await expect(page.getByTestId('field-model-choices').locator('option').first()).toHaveAttribute(
      'value',
      'test-model',
    );
    await page.getByRole('tab', { name: 'Run' }).click();
    await expect(page.getByTestId('no-provider')).toHaveCount(0);
    await page.locator('#run-input-text').fill('hi');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
      'Hello from the local model.',
    ]);
    expect(model.requests.find((r) => r.path.endsWith('/chat/completions'))?.body.model).toBe('other-model');
    // 10 × $1000/M + 5 × $3/M
    await expect(page.getByTestId('run-usage')).toHaveText('· 15 tokens · $0.01');
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-secret-1234');
  } finally {
    await model.close();
  }
});

test('with providers added but none the default, the home says that and links to the choice; its page links are links', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) =>
    services.providers.set({ name: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' }),
  );
  await page.goto(served.editorUrl);
  const notice = page.getByTestId('no-provider');
  await expect(notice).toHaveText(
    'No provider is the default yet (yours: local), so LLM nodes that name none cannot run. Choose the default',
  );
  // Real links: they can be opened in a new tab or copied.
  await expect(page.getByRole('link', { name: 'MCP servers' })).toHaveAttribute('href', '#/servers');
  await notice.getByRole('link', { name: 'Choose the default' }).click();
  await expect(page.getByRole('heading', { name: 'Model providers' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/providers');
  await page.getByRole('group', { name: 'Provider local' }).getByRole('button', { name: 'Make default' }).click();
  await page.goBack();
  await expect(page.getByRole('link', { name: 'Model providers' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test("a preset's default model is saved alone: the kind's own URL is not stored as the provider's", async ({
  page,
  served,
}) => {
  await page.goto(`${served.editorUrl}#/providers`);
  const row = page.getByRole('group', { name: 'Provider anthropic' });
  await row.getByLabel('Default model').fill('claude-sonnet-4-5');
  await row.getByRole('button', { name: 'Save model' }).click();
  await expect(row.getByRole('button', { name: 'Save model' })).toHaveCount(0);
  withDatabase(served.db, (services) => {
    const stored = services.providers.resolve('anthropic');
    expect(stored).toMatchObject({ kind: 'anthropic', defaultModel: 'claude-sonnet-4-5' });
    // Left to the kind: were Anthropic's URL to change, this provider would follow it.
    expect(stored.baseUrl).toBeUndefined();
  });
  // The settings form shows no URL of its own either.
  await row.getByRole('button', { name: 'Edit…' }).click();
  await expect(row.getByRole('form', { name: 'Settings of anthropic' }).getByLabel(/Base URL/)).toHaveValue('');
});

test("a preset's key is set, replaced and removed from its row; without one, Test and runs say where it goes, not the SDK's words", async ({
  page,
  served,
}) => {
  const model = await startOpenAiServer(() => ({ content: 'Hello from OpenAI.' }));
  try {
    await page.goto(`${served.editorUrl}#/providers`);
    const row = page.getByRole('group', { name: 'Provider openai' });
    await expect(row).toContainText('key: none (it needs one: Edit)');
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row.getByRole('status')).toHaveText(
      'provider "openai" has no API key: add it on the Model providers screen (Edit), or with `flowbench providers set openai --kind openai --api-key <key>`, or set OPENAI_API_KEY',
    );
    expect(model.requests).toHaveLength(0);

    await row.getByRole('button', { name: 'Edit…' }).click();
    const settings = row.getByRole('form', { name: 'Settings of openai' });
    await expect(settings.getByLabel(/Base URL/)).toHaveValue('');
    await settings.getByLabel(/Base URL/).fill(model.url);
    await settings.getByLabel(/API key/).fill('sk-first-key-0001');
    await settings.getByLabel(/API key/).press('Enter');
    await expect(settings).toHaveCount(0);
    await expect(row).toContainText(`OpenAI · ${model.url} · key: stored`);
    await expect(page.locator('body')).not.toContainText('sk-first-key-0001');
    await row.getByRole('button', { name: 'Make default' }).click();
    await row.getByLabel('Default model').fill('gpt-4o');
    await row.getByRole('button', { name: 'Save model' }).click();
    await expect(row.getByRole('button', { name: 'Save model' })).toHaveCount(0);

    // Replaced: the new key is the one a run sends; the URL and model stay.
    await row.getByRole('button', { name: 'Edit…' }).click();
    await expect(settings.getByLabel(/Base URL/)).toHaveValue(model.url);
    await settings.getByLabel(/API key/).fill('sk-second-key-0002');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings).toHaveCount(0);

    await openFlow(page, served, oneCall);
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.locator('#run-input-text').fill('hi');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('region', { name: 'What an MCP client receives' }).locator('pre')).toHaveText([
      'Hello from OpenAI.',
    ]);
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-second-key-0002');
    expect(model.requests.at(-1)?.body.model).toBe('gpt-4o');

    // Removed: the run says where a key goes, and nothing is sent.
    await page.goto(`${served.editorUrl}#/providers`);
    await row.getByRole('button', { name: 'Edit…' }).click();
    await settings.getByLabel('Remove the stored key').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(row).toContainText('key: none (it needs one: Edit)');
    withDatabase(served.db, (services) => {
      const openai = services.providers.list().find((p) => p.name === 'openai');
      expect(openai).toMatchObject({ apiKey: 'none', url: model.url, defaultModel: 'gpt-4o', isDefault: true });
    });
    const sent = model.requests.length;
    await page.goBack();
    await page.getByRole('tab', { name: 'Run' }).click();
    // Said before a run fails on it, with the way to the key.
    await expect(page.getByTestId('no-provider')).toHaveText(
      'The default provider openai has no API key, so LLM nodes that name none cannot run. Add it',
    );
    await page.locator('#run-input-text').fill('hi');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByText(/PROVIDER_AUTH_FAILED/).first()).toBeVisible();
    await expect(
      page.getByText('provider "openai" has no API key: add it on the Model providers screen').first(),
    ).toBeVisible();
    expect(model.requests).toHaveLength(sent);

    // Reset to preset: its own URL again, still the default.
    await page.goto(`${served.editorUrl}#/providers`);
    await row.getByRole('button', { name: 'Reset to preset' }).click();
    await expect(row).toContainText('OpenAI · https://api.openai.com/v1 · key: none');
    await expect(row.locator('.badge')).toHaveText('default');
  } finally {
    await model.close();
  }
});

test('a provider half added is still in its form after a look at another page', async ({ page, served }) => {
  await page.goto(`${served.editorUrl}#/providers`);
  await page.locator('#provider-name').fill('studio');
  await page.locator('#provider-url').fill('http://127.0.0.1:1234/v1');
  await page.getByRole('link', { name: '← Flows' }).click();
  await page.getByRole('link', { name: 'Model providers' }).click();
  await expect(page.locator('#provider-name')).toHaveValue('studio');
  await expect(page.locator('#provider-url')).toHaveValue('http://127.0.0.1:1234/v1');
  withDatabase(served.db, (services) => expect(services.providers.list().map((p) => p.name)).not.toContain('studio'));
});

test("an LLM node's Model field offers the models of the provider its Provider field names, and typing that name asks no provider that does not exist", async ({
  page,
  served,
  localModel,
}) => {
  await localModel(() => ({ content: 'ok' }));
  const asked: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/providers/test')) asked.push((request.postDataJSON() as { name: string }).name);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
  });
  await openFlow(page, served, oneCall);
  await page.locator('.react-flow__node[data-id="answer"]').click();
  const inspector = page.locator('.inspector');
  const provider = inspector.getByRole('combobox', { name: /^Provider/ });
  await provider.click();
  await provider.pressSequentially('local');
  await expect(provider).toHaveValue('local');
  // The Model field's list: the local model server's models.
  const modelField = inspector.getByRole('combobox', { name: /^Model/ });
  const listId = await modelField.getAttribute('list');
  await expect(page.locator(`datalist[id="${listId}"] option`)).toHaveCount(2);
  expect(
    await page
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
  ).toEqual(['test-model', 'other-model']);
  // Before: "l", "lo", "loc" and "loca" were each asked for, and each refused with a 404 in the console.
  expect(new Set(asked)).toEqual(new Set(['local']));
  expect(refused).toEqual([]);
});
