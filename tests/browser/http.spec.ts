import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { expect, expectSaved, openFlow, storedFlow, test } from './fixtures';

test('an HTTP request node calls its URL with the run’s values, shows the JSON it got, and keeps a secret header as •••', async ({
  page,
  served,
}) => {
  const seen: { url: string; auth: string | undefined; body: string }[] = [];
  const api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ forecast: `sunny in ${new URL(req.url ?? '', 'http://x').searchParams.get('q')}` }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
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
    await new Promise<void>((resolve) => api.close(() => resolve()));
  }
});
