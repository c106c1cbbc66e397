import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flow, FlowInput } from '../../core/model/flow';
import { echoFlow } from '../fixtures/mcp-flows';
import { prepareDatabase } from '../helpers/mcp';
import { startOpenAiServer, type OpenAiServer, type ReplyFn } from '../helpers/openai-server';
import { startServe } from '../helpers/serve';

export interface Served {
  editorUrl: string;
  db: string;
}

export const test = base.extend<{
  served: Served;
  /** Starts the local OpenAI-compatible test server and makes it the default provider `local`; closed after the test. */
  localModel: (reply: ReplyFn) => Promise<OpenAiServer>;
  /** Every test: the page throws nothing uncaught and runs nothing its CSP refuses (checked at the end). */
  pageKeptItsRules: void;
}>({
  // A request cut off when a test's `serve` stops is the app's to handle (report-failures.ts),
  // so this may be checked after `serve` has stopped.
  pageKeptItsRules: [
    async ({ page }, use) => {
      const errors = consoleErrors(page);
      await use();
      const broken = errors.filter((text) => !text.startsWith('console: ') || /Content Security Policy/.test(text));
      expect(broken).toEqual([]);
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern
  served: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'flowbench-browser-'));
    const db = join(dir, 'browser.db');
    const serve = await startServe(db);
    await use({ editorUrl: serve.editorUrl, db });
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  },
  localModel: async ({ served }, use) => {
    const started: OpenAiServer[] = [];
    await use(async (reply) => {
      const model = await startOpenAiServer(reply);
      started.push(model);
      setLocalProvider(served, model.url);
      return model;
    });
    for (const model of started) await model.close();
  },
});

/** Opens the test's database beside `serve` (SQLite allows it) to add flows a test needs. */
export const withDatabase = prepareDatabase;

/** Stores a flow beside `serve` and opens it in the editor. */
export async function openFlow(page: Page, served: Served, flow: FlowInput): Promise<void> {
  const created = prepareDatabase(served.db, (services) => services.flows.create(flow));
  await page.goto(`${served.editorUrl}#/flow/${encodeURIComponent(created.id)}`);
}

/** The flow as it is stored now, read beside `serve`. */
export function storedFlow(db: string, id: string): Flow {
  let flow: Flow | undefined;
  prepareDatabase(db, (services) => (flow = services.flows.get(id)));
  return flow as Flow;
}

/** The echo tool flow with its nodes side by side, as the editor would lay them out (clickable one by one). */
export function laidOutEcho(overrides: Partial<FlowInput> = {}): FlowInput {
  const nodes = echoFlow.nodes.map((node, i) => ({ ...node, position: { x: i * 320, y: 100 } }));
  return { ...echoFlow, nodes, ...overrides };
}

/**
 * Holds back `window`'s reads of the flow from now on, until the function
 * returned is called: the window then writes before it has seen another's
 * edit. Called with 'abort', the reads fail from then on (Flowbench gone).
 */
export async function holdFlowReads(window: Page): Promise<(then?: 'continue' | 'abort') => void> {
  let release: (then: 'continue' | 'abort') => void = () => undefined;
  const released = new Promise<'continue' | 'abort'>((resolve) => (release = resolve));
  await window.route('**/api/flows/get', async (route) => {
    await ((await released) === 'abort' ? route.abort() : route.continue());
  });
  return (then = 'continue') => release(then);
}

/** The canvas's levels of detail, farthest first (renderer/src/editor/viewport.ts). */
const DETAILS = ['box', 'label', 'full'] as const;

/**
 * Zooms with the canvas's buttons until it shows cards at `detail`: 'box' (far
 * out: labels alone, the edges as one path), 'label' (icon, label and summary
 * in large type) or 'full' (close up).
 */
export async function zoomToDetail(page: Page, detail: (typeof DETAILS)[number]): Promise<void> {
  const canvas = page.locator('.canvas-drop');
  const level = async () => DETAILS.indexOf((await canvas.getAttribute('data-detail')) as (typeof DETAILS)[number]);
  const wanted = DETAILS.indexOf(detail);
  for (let i = 0; i < 12 && (await level()) !== wanted; i++) {
    await page.getByRole('button', { name: (await level()) < wanted ? 'Zoom In' : 'Zoom Out' }).click();
    await page.waitForTimeout(150);
  }
  await expect(canvas).toHaveAttribute('data-detail', detail);
}

/** What the page and its frames log as errors from now on (a script the CSP refuses among them). */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Waits until the editor has saved every edit. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 10_000 });
}

/**
 * A port's box once it has stopped moving: just after a node is added the card can still
 * grow (its problems arrive) or the view still move, and a drag aimed at where the port was
 * a moment before ends on the canvas (the add-a-node menu) instead of on the port.
 */
async function stillBox(port: Locator): Promise<{ x: number; y: number; width: number; height: number } | null> {
  let last = await port.boundingBox();
  for (let i = 0; i < 20; i++) {
    await port.page().waitForTimeout(50);
    const now = await port.boundingBox();
    if (now && last && now.x === last.x && now.y === last.y) return now;
    last = now;
  }
  return last;
}

/** Whether `check` passes within `ms` milliseconds. */
const passesWithin = (check: () => Promise<void>, ms: number): Promise<boolean> =>
  expect(check)
    .toPass({ timeout: ms })
    .then(
      () => true,
      () => false,
    );

/** Tries of a drag that React Flow does not take at its target (see connect). */
const CONNECT_TRIES = 3;

/**
 * Drags from a node's output handle to another node's input handle, as a
 * person does. `beforeRelease` looks at the screen while the pointer is still
 * over the target.
 *
 * React Flow takes the port under the pointer once it has measured that node's
 * ports; a hand held over the port moves a little, and so does this, until the
 * port shows it is the connection's end. In about one CI run in five (2 cores)
 * the first drag onto a node just dropped never got there: React Flow had
 * forgotten that node's ports (toRfNodes made the node again without the size
 * React Flow had measured; fixed in session 66). A drag not taken is let go
 * over the palette, where nothing happens, and made again, as a person would;
 * each retry is printed, so that it is seen and not hidden.
 */
export async function connect(
  page: Page,
  from: string,
  to: string,
  options: { port?: string; beforeRelease?: () => Promise<void> } = {},
): Promise<void> {
  const source = page.locator(
    `.react-flow__node[data-id="${from}"] .react-flow__handle.source[data-handleid="${options.port ?? 'out'}"]`,
  );
  const target = page.locator(`.react-flow__node[data-id="${to}"] .react-flow__handle.target`);
  for (let attempt = 1; ; attempt++) {
    const a = await stillBox(source);
    const b = await stillBox(target);
    if (!a || !b) throw new Error(`handles of ${from} → ${to} not visible`);
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
    await page.mouse.move(x, y, { steps: 12 });
    const taken = async () => {
      await page.mouse.move(x + 1, y);
      await page.mouse.move(x, y);
      await expect(target).toHaveClass(/\bconnectingto\b/, { timeout: 500 });
    };
    if (attempt === CONNECT_TRIES) await expect(taken).toPass({ timeout: 10_000 });
    else if (!(await passesWithin(taken, 5_000))) {
      console.warn(`connect ${from} → ${to}: React Flow did not take the port (try ${attempt}); dragging again`);
      const palette = await page.getByRole('complementary', { name: 'Node palette' }).boundingBox();
      if (!palette) throw new Error(`connect ${from} → ${to}: no palette to let the drag go over`);
      await page.mouse.move(palette.x + palette.width / 2, palette.y + palette.height - 10, { steps: 4 });
      await page.mouse.up();
      continue;
    }
    await options.beforeRelease?.();
    await page.mouse.up();
    return;
  }
}

export { expect };

/** Makes a provider named `local` at an OpenAI-compatible URL the default, beside `serve`. */
export function setLocalProvider(served: Served, baseUrl: string): void {
  prepareDatabase(served.db, (services) =>
    services.providers.set({ name: 'local', kind: 'openai-compatible', baseUrl, defaultModel: 'test-model' }, true),
  );
}

/** Pastes `text` into `field` as a person does: through the system clipboard and Ctrl+V (Cmd+V on a Mac). */
export async function pasteInto(field: Locator, text: string): Promise<void> {
  const page = field.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((pasted) => navigator.clipboard.writeText(pasted), text);
  await field.click();
  await page.keyboard.press('ControlOrMeta+V');
}
