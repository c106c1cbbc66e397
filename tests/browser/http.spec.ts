import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test, withDatabase } from './fixtures';
import { tinyPng } from '../helpers/images';

/** A real API on 127.0.0.1 answering as `handle` does, for one test: its base URL, and close when done. */
async function localApi(handle: RequestListener): Promise<{ base: string; close: () => Promise<void> }> {
  const api = createServer(handle);
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => api.close(() => resolve())),
  };
}

/** A local API answering JSON (`answer` of the Authorization header it got), keeping each request's header in `seen`. */
async function authRecordingApi(answer: (auth: string | undefined) => unknown) {
  const seen: (string | undefined)[] = [];
  const api = await localApi((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer(req.headers.authorization)));
  });
  return { ...api, seen };
}

test('an HTTP request node calls its URL with the run’s values, shows the JSON it got, and keeps a secret header as •••', async ({
  page,
  served,
}) => {
  const seen: { url: string; auth: string | undefined; body: string }[] = [];
  const { base, close } = await localApi((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ forecast: `sunny in ${new URL(req.url ?? '', 'http://x').searchParams.get('q')}` }));
    });
  });
  try {
    await openFlow(page, served, {
      ...buildFlow({
        id: 'weather',
        parameters: [{ name: 'city', type: 'string' }],
        nodes: [
          { ...input(), position: { x: 0, y: 100 } },
          {
            id: 'call',
            type: 'http',
            position: { x: 300, y: 100 },
            config: {
              url: `${base}/weather?q={{inputs.city}}`,
              headers: [{ name: 'Authorization', value: 'Bearer sk-live-123' }],
            },
          },
          { ...output('{{nodes.call.output.forecast}}'), position: { x: 600, y: 100 } },
        ],
        edges: ['input>call', 'call>result'],
      }),
      name: 'Weather',
    });
    const card = page.getByTestId('rf__node-call');
    await expect(card).toContainText('HTTP request');
    await expect(card).toContainText(`GET ${base}/weather?q={{inputs.city}}`);
    await card.click();
    const inspector = page.getByLabel('Inspector');
    // A GET sends no body: its field shows once the method takes one.
    await expect(inspector.getByText('Body', { exact: true })).toHaveCount(0);
    await inspector.locator('#field-method').selectOption('POST');
    await expect(inspector.getByText('Body', { exact: true })).toBeVisible();
    await expectSaved(page);
    expect(storedFlow(served.db, 'weather').nodes.find((n) => n.id === 'call')?.config.method).toBe('POST');
    await inspector.locator('#field-method').selectOption('GET');
    await expectSaved(page);
    // The token typed as it is is warned of (it runs as typed), pointing at the Secrets page.
    await page.getByRole('tab', { name: /Problems/ }).click();
    await expect(page.getByRole('list', { name: 'Problems' })).toContainText(
      'node "call" its Authorization header\'s value is typed as it is, so the flow and its exported file hold it: keep it on the Secrets page and write {{secrets.name}} here',
    );

    await page.getByRole('tab', { name: 'Run' }).click();
    await page.locator('#run-input-city').fill('Oslo');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    expect(seen).toEqual([{ url: '/weather?q=Oslo', auth: 'Bearer sk-live-123', body: '' }]);
    await expect(page.getByLabel('What an MCP client receives')).toContainText('sunny in Oslo');
    await card.click();
    const details = page.getByLabel('Step details');
    await expect(details).toContainText('Authorization: "•••"');
    await expect(details).not.toContainText('sk-live-123');
  } finally {
    await close();
  }
});

test('the Secrets page keeps a value by name and says which flows read it; an HTTP request node is offered {{secrets.…}}, sends the value and shows •••; Remove asks first', async ({
  page,
  served,
}) => {
  const { base, close, seen } = await authRecordingApi((auth) => ({ login: 'octo', echoed: auth }));
  try {
    await page.goto(served.editorUrl);
    await page.getByRole('link', { name: 'Secrets' }).click();
    await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible();
    await expect(page.getByText('No secrets yet.')).toBeVisible();
    const add = page.getByRole('form', { name: 'Add a secret' });
    await add.getByLabel('Name').fill('my key');
    await expect(add).toContainText('a name: letters, digits, _ and -, at most 64');
    await expect(add.getByRole('button', { name: 'Save secret' })).toBeDisabled();
    await add.getByLabel('Name').fill('github');
    // A value too short to hide in runs is said so while it is typed.
    await add.getByLabel('Value').fill('abc');
    await expect(add).toContainText('shorter than 4 characters: runs record it as it is, not as •••');
    await add.getByLabel('Value').fill('ghp_browser-secret');
    await expect(add).not.toContainText('shorter than 4 characters');
    await add.getByRole('button', { name: 'Save secret' }).click();
    const row = page.getByRole('group', { name: 'Secret github' });
    await expect(row).toContainText('{{secrets.github}}');
    await expect(row).toContainText('kept in');
    await expect(row).toContainText('read by no flow');
    await expect(add.getByLabel('Value')).toHaveValue('');
    await page.reload();
    await expect(page.getByRole('group', { name: 'Secret github' })).toBeVisible();

    await openFlow(page, served, {
      ...buildFlow({
        id: 'whoami',
        nodes: [
          { ...input(), position: { x: 0, y: 100 } },
          {
            id: 'call',
            type: 'http',
            position: { x: 300, y: 100 },
            config: { url: `${base}/user`, headers: [{ name: 'Authorization', value: '' }] },
          },
          { ...output('{{nodes.call.output}}'), position: { x: 600, y: 100 } },
        ],
        edges: ['input>call', 'call>result'],
      }),
      name: 'Who am I',
    });
    await page.getByTestId('rf__node-call').click();
    const header = page.getByTestId('template-headers.0.value').locator('.cm-content');
    await header.click();
    await page.keyboard.type('Bearer {{secr');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'secrets.github' });
    await expect(option).toBeVisible();
    await page.waitForTimeout(200); // CodeMirror ignores Enter for 75 ms after its list opens
    await page.keyboard.press('Enter');
    await expect(header).toHaveText('Bearer {{secrets.github}}');
    await page.keyboard.press('Escape');
    await expectSaved(page);
    expect(storedFlow(served.db, 'whoami').nodes.find((n) => n.id === 'call')?.config.headers).toEqual([
      { name: 'Authorization', value: 'Bearer {{secrets.github}}' },
    ]);

    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    expect(seen).toEqual(['Bearer ghp_browser-secret']);
    await page.getByTestId('rf__node-call').click();
    const details = page.getByLabel('Step details');
    await expect(details).toContainText('Bearer •••');
    await expect(page.locator('body')).not.toContainText('ghp_browser-secret');

    // The page says which flows read it; removing asks first, naming them, and Keep keeps it.
    await page.goto(`${served.editorUrl}#/secrets`);
    const kept = page.getByRole('group', { name: 'Secret github' });
    await expect(kept).toContainText('read by Who am I');
    await kept.getByRole('button', { name: 'Remove…' }).click();
    const asked = kept.getByRole('alertdialog', { name: 'Remove github?' });
    await expect(asked).toContainText('This flow will not start until it is set again: Who am I.');
    await asked.getByRole('button', { name: 'Keep' }).click();
    await expect(kept).toBeVisible();
    // Gone from the Secrets page, the flow no longer starts, and says why.
    await kept.getByRole('button', { name: 'Remove…' }).click();
    await kept.getByRole('button', { name: 'Remove {{secrets.github}}' }).click();
    await expect(page.getByText('No secrets yet.')).toBeVisible();
    await page.goBack();
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByText('reads {{secrets.github}}, which is not set here')).toBeVisible();
    expect(seen).toHaveLength(1);
  } finally {
    await close();
  }
});

test('a pasted cURL command fills in the HTTP request in one edit, saying what it left out and that $TOKEN became a secret', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'from-curl',
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { id: 'call', type: 'http', position: { x: 300, y: 100 }, config: { url: 'https://old.example/' } },
        { ...output('{{nodes.call.output}}'), position: { x: 600, y: 100 } },
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'From cURL',
  });
  await page.getByTestId('rf__node-call').click();
  const inspector = page.getByLabel('Inspector');
  await inspector.getByText('Paste a cURL command…').click();
  await inspector
    .getByLabel("A browser's Copy as cURL, or an API's example")
    .fill(
      `curl -k 'https://api.example/v1/issues?labels=bug%20report' \\\n  -H 'Authorization: Bearer $GITHUB_TOKEN' \\\n  -H 'content-type: application/json' \\\n  --data-raw '{"title":"Bug"}'`,
    );
  await inspector.getByRole('button', { name: 'Fill in the request' }).click();
  const said = inspector.getByRole('status');
  await expect(said).toContainText('Left out -k: the node always checks the server’s certificate');
  await expect(said).toContainText('$GITHUB_TOKEN became {{secrets.GITHUB_TOKEN}}: set it on the Secrets page');
  await expect(page.getByTestId('template-url').locator('.cm-content')).toHaveText('https://api.example/v1/issues');
  await expect(page.getByTestId('template-headers.0.value').locator('.cm-content')).toHaveText(
    'Bearer {{secrets.GITHUB_TOKEN}}',
  );
  // The URL's query is in Query parameters, decoded, where the node encodes it.
  await expect(page.getByTestId('template-query.0.value').locator('.cm-content')).toHaveText('bug report');
  await expect(inspector.locator('#field-method')).toHaveValue('POST');
  await expectSaved(page);
  expect(storedFlow(served.db, 'from-curl').nodes.find((n) => n.id === 'call')?.config).toMatchObject({
    method: 'POST',
    url: 'https://api.example/v1/issues',
    query: [{ name: 'labels', value: 'bug report' }],
    headers: [
      { name: 'Authorization', value: 'Bearer {{secrets.GITHUB_TOKEN}}' },
      { name: 'content-type', value: 'application/json' },
    ],
    body: '{"title":"Bug"}',
  });
  // One edit: one Undo takes the whole request back.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expectSaved(page);
  expect(storedFlow(served.db, 'from-curl').nodes.find((n) => n.id === 'call')?.config).toMatchObject({
    method: 'GET',
    url: 'https://old.example/',
    query: [],
    headers: [],
  });
});

test('a form body: Body type swaps the Body for Form fields, sent URL-encoded with the run’s values; a pasted -F command fills a multipart one', async ({
  page,
  served,
}) => {
  const seen: { type: string | undefined; body: string }[] = [];
  const { base, close } = await localApi((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ type: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  try {
    await openFlow(page, served, {
      ...buildFlow({
        id: 'form-post',
        parameters: [{ name: 'city', type: 'string' }],
        nodes: [
          { ...input(), position: { x: 0, y: 100 } },
          { id: 'call', type: 'http', position: { x: 300, y: 100 }, config: { method: 'POST', url: `${base}/token` } },
          { ...output('{{nodes.call.output.ok}}'), position: { x: 600, y: 100 } },
        ],
        edges: ['input>call', 'call>result'],
      }),
      name: 'Form post',
    });
    await page.getByTestId('rf__node-call').click();
    const inspector = page.getByLabel('Inspector');
    await expect(inspector.getByText('Body', { exact: true })).toBeVisible();
    await expect(inspector.getByRole('button', { name: 'Add form field' })).toHaveCount(0);
    await inspector.locator('#field-bodyType').selectOption('form');
    // The text body gives way to the form's fields.
    await expect(inspector.getByText('Body', { exact: true })).toHaveCount(0);
    await inspector.getByRole('button', { name: 'Add form field' }).click();
    await inspector.locator('#field-form\\.0\\.name').fill('q');
    await page.getByTestId('template-form.0.value').locator('.cm-content').click();
    await page.keyboard.type('{{inputs.city}}');
    await expectSaved(page);
    expect(storedFlow(served.db, 'form-post').nodes.find((n) => n.id === 'call')?.config).toMatchObject({
      bodyType: 'form',
      form: [{ name: 'q', value: '{{inputs.city}}' }],
    });

    await page.getByRole('tab', { name: 'Run' }).click();
    await page.locator('#run-input-city').fill('Oslo & Bergen');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    expect(seen).toEqual([{ type: 'application/x-www-form-urlencoded;charset=UTF-8', body: 'q=Oslo+%26+Bergen' }]);
    await page.getByTestId('rf__node-call').click();
    await expect(page.getByLabel('Step details')).toContainText('q: "Oslo & Bergen"');

    await page.getByRole('tab', { name: 'Inspector' }).click();
    await inspector.getByText('Paste a cURL command…').click();
    await inspector
      .getByLabel("A browser's Copy as cURL, or an API's example")
      .fill(`curl ${base}/upload -F 'text=Hello there' -F file=@photo.png`);
    await inspector.getByRole('button', { name: 'Fill in the request' }).click();
    await expect(inspector.getByRole('status')).toContainText('Left out -F file=@photo.png: the node uploads no file');
    await expect(inspector.locator('#field-bodyType')).toHaveValue('multipart');
    await expect(inspector.locator('#field-form\\.0\\.name')).toHaveValue('text');
    await expect(page.getByTestId('template-form.0.value').locator('.cm-content')).toHaveText('Hello there');
  } finally {
    await close();
  }
});

test('an image the HTTP request node got shows as the image in its step, with its type and size, and goes to clients as image content', async ({
  page,
  served,
}) => {
  // A 1×1 PNG, as a chart or avatar API answers.
  const png = tinyPng();
  const { base, close } = await localApi((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  try {
    await openFlow(page, served, {
      ...buildFlow({
        id: 'avatar',
        nodes: [
          { ...input(), position: { x: 0, y: 100 } },
          { id: 'call', type: 'http', position: { x: 300, y: 100 }, config: { url: `${base}/avatar.png` } },
          { ...output('{{nodes.call.output}}'), position: { x: 600, y: 100 } },
        ],
        edges: ['input>call', 'call>result'],
      }),
      name: 'Avatar',
    });
    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    // The output node returns it: a client is sent image content, shown as such.
    const client = page.getByLabel('What an MCP client receives');
    await expect(client).toContainText('content[0] · image (image/png)');
    await expect(client.getByRole('img', { name: 'the image/png image a client receives' })).toBeVisible();
    await page.getByTestId('rf__node-call').click();
    const details = page.getByLabel('Step details');
    await expect(details).toContainText(`image/png, ${png.length} B (a data: URL; Copy takes all of it)`);
    const image = details.getByRole('img', { name: 'the image/png the step gave' });
    await expect(image).toBeVisible();
    // Decoded by the browser: the bytes arrived whole.
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1, 1]);
  } finally {
    await close();
  }
});

test('Basic auth: the user and password typed in the inspector are sent as the Authorization header, the run shows •••', async ({
  page,
  served,
}) => {
  const { base, close, seen } = await authRecordingApi(() => ({ balance: 12 }));
  try {
    await openFlow(page, served, {
      ...buildFlow({
        id: 'balance',
        nodes: [
          { ...input(), position: { x: 0, y: 100 } },
          { id: 'call', type: 'http', position: { x: 300, y: 100 }, config: { url: `${base}/balance` } },
          { ...output('{{nodes.call.output.balance}}'), position: { x: 600, y: 100 } },
        ],
        edges: ['input>call', 'call>result'],
      }),
      name: 'Balance',
    });
    await page.getByTestId('rf__node-call').click();
    const inspector = page.getByLabel('Inspector');
    // The user and password show once Basic auth is chosen.
    await expect(page.getByTestId('template-basicUser')).toHaveCount(0);
    await inspector.locator('#field-auth').selectOption('basic');
    await page.getByTestId('template-basicUser').locator('.cm-content').click();
    await page.keyboard.type('ada');
    await page.getByTestId('template-basicPassword').locator('.cm-content').click();
    await page.keyboard.type('s3cret');
    await expectSaved(page);
    expect(storedFlow(served.db, 'balance').nodes.find((n) => n.id === 'call')?.config).toMatchObject({
      auth: 'basic',
      basicUser: 'ada',
      basicPassword: 's3cret',
    });

    await page.getByRole('tab', { name: 'Run' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.locator('.run-status')).toHaveText(/succeeded/i, { timeout: 15_000 });
    expect(seen).toEqual([`Basic ${Buffer.from('ada:s3cret').toString('base64')}`]);
    await page.getByTestId('rf__node-call').click();
    await expect(page.getByLabel('Step details')).toContainText('Authorization: "•••"');
  } finally {
    await close();
  }
});

test('the Secrets page lists the secrets flows read that are not set here, with the flows, and sets one in place', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'forecast',
      nodes: [
        input(),
        {
          id: 'call',
          type: 'http',
          config: { url: 'https://api.example/forecast?key={{secrets.weather_key}}' },
        },
        output('{{nodes.call.output}}'),
      ],
      edges: ['input>call', 'call>result'],
    }),
    name: 'Forecast',
  });
  await page.goto(`${served.editorUrl}#/secrets`);
  const wanted = page.getByRole('region', { name: 'Not set here' });
  const row = wanted.getByRole('group', { name: 'Secret weather_key, not set' });
  await expect(row).toContainText('{{secrets.weather_key}}');
  await expect(row).toContainText('not set here; read by Forecast');
  await row.getByLabel('Value of weather_key').fill('wk-123456');
  await row.getByRole('button', { name: 'Save value' }).click();
  // Set, it is a secret as the others: kept, read by the flow, no longer wanted.
  const kept = page.getByRole('region', { name: 'Secrets' }).getByRole('group', { name: 'Secret weather_key' });
  await expect(kept).toContainText('read by Forecast');
  await expect(wanted).toHaveCount(0);
  expect(withDatabase(served.db, (services) => services.flowSecrets.reader.read('weather_key'))).toBe('wk-123456');
});
