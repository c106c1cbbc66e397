import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import type { Flow } from '../../core/model/flow';
import { installExamples } from '../../core/services/examples';
import { NODE_BORDER, NODE_MIN_HEIGHT, NODE_WIDTH, PORT_SIZE } from '../../core/editing/layout';
import { buildFlow, input, llm, output, template } from '../helpers/flow-builder';
import { generatedFlow, summaryChain } from '../helpers/flows';
import { expect, expectSaved, laidOutEcho, openFlow, storedFlow, test, withDatabase, zoomToDetail } from './fixtures';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const contains = (outer: Box, inner: Box) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

async function boxes(nodes: Locator): Promise<Box[]> {
  const found: Box[] = [];
  for (const node of await nodes.all()) {
    const box = await node.boundingBox();
    if (box) found.push(box);
  }
  return found;
}

function expectNoOverlaps(found: Box[]): void {
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) expect(overlap(found[i] as Box, found[j] as Box)).toBe(false);
  }
}

/** The smallest text on any card, in screen pixels: its font size times the canvas zoom. */
async function smallestTextPx(page: Page): Promise<number> {
  return page.evaluate(() => {
    const transform = getComputedStyle(document.querySelector('.react-flow__viewport') as Element).transform;
    const zoom = new DOMMatrix(transform).a;
    const texts = document.querySelectorAll<HTMLElement>(
      '.react-flow__node .fb-node-label, .react-flow__node .fb-node-type, .react-flow__node .fb-node-summary, .react-flow__node .fb-node-compact-label, .react-flow__node .fb-node-compact-summary, .react-flow__node .port-label',
    );
    let smallest = Infinity;
    for (const text of Array.from(texts))
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * zoom);
    return smallest;
  });
}

test('a node added from the palette goes beside the selection, joined after it as n8n’s nodes panel joins it, else into free space in view (issue 17, point 4)', async ({
  page,
  served,
}) => {
  await openFlow(page, served, laidOutEcho());
  await page.getByTestId('rf__node-say').click();
  await page.getByTestId('palette-template').click();
  const added = page.getByTestId('rf__node-template_1');
  await expect(added).toBeVisible();
  const say = (await page.getByTestId('rf__node-say').boundingBox()) as Box;
  const placed = (await added.boundingBox()) as Box;
  expect(placed.x).toBeGreaterThan(say.x + say.width);
  expectNoOverlaps(await boxes(page.locator('.react-flow__node')));
  // Joined after say, its empty text filled with say's output as drawing the edge fills it.
  await expectSaved(page);
  const stored = storedFlow(served.db, 'echo');
  expect(stored.edges).toContainEqual(expect.objectContaining({ source: 'say', target: 'template_1' }));
  expect(stored.nodes.find((n) => n.id === 'template_1')?.config.template).toBe('{{nodes.say.output}}');
  // An input node follows nothing: added beside the selected template_1, unjoined.
  await page.getByTestId('palette-input').click();
  await expect(page.getByTestId('rf__node-input_1')).toBeVisible();
  await expectSaved(page);
  expect(storedFlow(served.db, 'echo').edges.filter((e) => e.target === 'input_1' || e.source === 'input_1')).toEqual(
    [],
  );

  // Nothing selected: into the view, on no other card, however many are added.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
  for (let i = 0; i < 3; i++) await page.getByTestId('palette-llm').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(8);
  expectNoOverlaps(await boxes(page.locator('.react-flow__node')));
  const canvas = (await page.locator('.react-flow').boundingBox()) as Box;
  for (const box of await boxes(page.locator('.react-flow__node[data-id^="llm_"]'))) {
    expect(overlap(box, canvas)).toBe(true);
  }
});

test('after Layout the whole flow is in view, wherever the view was and wherever the cards went', async ({
  page,
  served,
}) => {
  // Cards in a column, so that the layout moves them into a row.
  const flow = laidOutEcho({ id: 'column' });
  flow.nodes = flow.nodes.map((n, i) => ({ ...n, position: { x: 0, y: i * 300 } }));
  await openFlow(page, served, flow);
  const canvas = (await page.locator('.react-flow').boundingBox()) as Box;
  // The view dragged away until no card is in it.
  const pane = page.locator('.react-flow__pane');
  for (let i = 0; i < 3; i++) {
    await pane.hover({ position: { x: canvas.width - 20, y: canvas.height - 20 } });
    await page.mouse.down();
    await page.mouse.move(canvas.x + 20, canvas.y + 20, { steps: 5 });
    await page.mouse.up();
  }
  for (const box of await boxes(page.locator('.react-flow__node'))) expect(overlap(box, canvas)).toBe(false);

  await page.getByRole('button', { name: 'Layout' }).click();
  // Laid out in a row, as stored (the layout is worked out off the page's thread, then saved).
  await expect.poll(() => new Set(storedFlow(served.db, 'column').nodes.map((n) => n.position.y)).size).toBe(1);
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  await expect
    .poll(async () => (await boxes(page.locator('.react-flow__node'))).every((box) => contains(canvas, box)))
    .toBe(true);
});

test('an imported flow all in one row is laid out so that its branches show (issue 17, point 4)', async ({
  page,
  served,
}) => {
  await page.goto(served.editorUrl);
  await page.getByTestId('import-file').setInputFiles({
    name: 'flowyprompt-marketing.json',
    mimeType: 'application/json',
    buffer: readFileSync('tests/fixtures/formats/flowyprompt-marketing.json'),
  });
  await expect(page.getByRole('status')).toContainText('laid out, as a branching flow was all in one row');
  const row = page.locator('[data-testid^="flow-row-"]');
  await row.getByRole('link').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(4);
  const found = await boxes(page.locator('.react-flow__node'));
  expectNoOverlaps(found);
  expect(new Set(found.map((b) => Math.round(b.y))).size).toBeGreaterThan(1);
  await page.screenshot({ path: test.info().outputPath('imported-laid-out.png') });
  // What is on screen is what was saved.
  const flowId = decodeURIComponent(new URL(page.url()).hash.replace('#/flow/', ''));
  const stored = storedFlow(served.db, flowId);
  expect(new Set(stored.nodes.map((n) => n.position.y)).size).toBeGreaterThan(1);
});

/** Input → llm, whose answer and error go to two outputs: edges e0, e1 and (from the error port) e2. */
function branchingFlow(id: string) {
  return buildFlow({
    id,
    parameters: [{ name: 'question', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm('answer', '{{inputs.question}}'), position: { x: 320, y: 100 } },
      { ...output('{{nodes.answer.output}}'), position: { x: 640, y: 0 } },
      { ...output('{{nodes.answer.error}}'), id: 'fallback', position: { x: 640, y: 200 } },
    ],
    edges: ['input>answer', 'answer>result', 'answer.error>fallback'],
  });
}

test('port labels stay inside their card, edges read in both themes, text is readable as a flow opens (issue 17, point 4)', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create({ ...branchingFlow('branching'), name: 'Branching' }));
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${served.editorUrl}#/flow/branching`);
    const answer = page.getByTestId('rf__node-answer');
    await expect(answer.locator('.port-label')).toHaveText(['answer', 'on error']);
    const card = (await answer.boundingBox()) as Box;
    // The card React Flow measures is the box the layout and offscreen nodes go by (core/editing/layout.ts).
    const drawn = await answer.evaluate((node: HTMLElement) => ({
      width: node.offsetWidth,
      height: node.offsetHeight,
      border: getComputedStyle(node).borderTopWidth,
      port: (node.querySelector('.react-flow__handle') as HTMLElement).offsetWidth,
    }));
    expect(drawn.width).toBe(NODE_WIDTH);
    expect(drawn.border).toBe(`${NODE_BORDER}px`);
    expect(drawn.height).toBeGreaterThanOrEqual(NODE_MIN_HEIGHT);
    expect(drawn.port).toBe(PORT_SIZE);
    // The labels are rows beside the title: the summary under them has the card's whole width.
    const summary = (await answer.locator('.fb-node-summary').boundingBox()) as Box;
    expect(summary.x + summary.width).toBeGreaterThan(card.x + card.width - 16);
    for (const label of await answer.locator('.port-label').all()) {
      const box = (await label.boundingBox()) as Box;
      expect(contains(card, box)).toBe(true);
      expect(overlap(box, summary)).toBe(false);
    }
    expect(await smallestTextPx(page)).toBeGreaterThanOrEqual(9);
    // An edge stands out from the canvas: 2 px wide, in a colour far from the background's.
    const contrast = await page.evaluate(() => {
      const luminance = (colour: string) => {
        const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      };
      const path = document.querySelector('.react-flow__edge-path') as Element;
      const pane = document.querySelector('.react-flow') as Element;
      return {
        width: parseFloat(getComputedStyle(path).strokeWidth),
        difference: Math.abs(
          luminance(getComputedStyle(path).stroke) - luminance(getComputedStyle(pane).backgroundColor),
        ),
      };
    });
    expect(contrast.width).toBeGreaterThanOrEqual(2);
    expect(contrast.difference).toBeGreaterThan(0.3);
    await page.screenshot({ path: test.info().outputPath(`ports-${colorScheme}.png`) });
  }
});

test('a flow that fits a level of detail with a thinner margin opens at that level: the six-card example shows icons and summaries', async ({
  page,
  served,
}) => {
  // The shipped example: six cards in a row, 1,720 px wide, just too wide for large type with fitView's margin here.
  const flow = withDatabase(served.db, (services) => installExamples(services.flows)).added.find(
    (added) => added.tool.name === 'launch_campaign',
  ) as Flow;
  expect(flow.nodes).toHaveLength(6);
  await page.goto(`${served.editorUrl}#/flow/${encodeURIComponent(flow.id)}`);
  await expect(page.locator('.canvas-drop')).toHaveAttribute('data-detail', 'label');
  await expect(page.locator('.fb-node-compact-icon')).toHaveCount(6);
  expect(await smallestTextPx(page)).toBeGreaterThanOrEqual(9);
  // All of it in view.
  const canvas = (await page.locator('.react-flow').boundingBox()) as Box;
  for (const box of await boxes(page.locator('.react-flow__node'))) expect(contains(canvas, box)).toBe(true);
  // Fit, from the toolbar, the canvas's controls or Shift+1, comes back to the same view.
  for (const fit of [
    () => page.getByRole('button', { name: 'Fit', exact: true }).click(),
    () => page.getByRole('button', { name: 'Fit View' }).click(),
    () => page.keyboard.press('Shift+!'),
  ]) {
    await zoomToDetail(page, 'box');
    await fit();
    await expect(page.locator('.canvas-drop')).toHaveAttribute('data-detail', 'label');
  }
});

test('zoomed out to large type, a card still shows its error and warning counts', async ({ page, served }) => {
  // A template nothing connects to the input: it never runs (a warning).
  const echo = laidOutEcho();
  const stray = { ...template('stray', 'never runs'), position: { x: 0, y: 300 } };
  await openFlow(page, served, { ...echo, nodes: [...echo.nodes, stray] });
  const card = page.getByTestId('rf__node-stray');
  await expect(card.locator('.fb-warnings')).toHaveText('1');
  await zoomToDetail(page, 'label');
  await expect(card.locator('.fb-node-compact .fb-warnings')).toHaveText('1');
  await expect(card.getByLabel('1 warning(s)')).toBeVisible();
  expect(await smallestTextPx(page)).toBeGreaterThanOrEqual(9);
});

test('zoomed out to large type, a short label is whole: the room kept for port labels goes with them', async ({
  page,
  served,
}) => {
  const flow = branchingFlow('large-type');
  const nodes = flow.nodes.map((node) => (node.id === 'answer' ? { ...node, label: 'Draft reply' } : node));
  withDatabase(served.db, (services) => services.flows.create({ ...flow, nodes, name: 'Large type' }));
  await page.goto(`${served.editorUrl}#/flow/large-type`);
  await zoomToDetail(page, 'label');
  const label = page.getByTestId('rf__node-answer').locator('.fb-node-compact-label');
  await expect(label).toHaveText('Draft reply');
  // Not cut short with an ellipsis: all of it fits in the box it has.
  expect(await label.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
  expect(await smallestTextPx(page)).toBeGreaterThanOrEqual(9);
});

test('at 1024×700 the minimap covers no node at rest, and shows while the view moves (issue 17, point 4)', async ({
  page,
  served,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openFlow(page, served, laidOutEcho());
  const map = page.locator('.react-flow__minimap');
  // At rest it is not drawn at all (a hidden map still costs every frame on big flows).
  await expect(map).toHaveCount(0);
  // Every node can be clicked where it is drawn: nothing lies over it.
  for (const id of ['input', 'say', 'result']) {
    await page.getByTestId(`rf__node-${id}`).click();
    await expect(page.getByTestId(`rf__node-${id}`)).toHaveClass(/selected/);
  }
  expect(await smallestTextPx(page)).toBeGreaterThanOrEqual(9);
  await page.screenshot({ path: test.info().outputPath('small-window.png') });

  const pane = (await page.locator('.react-flow__pane').boundingBox()) as Box;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.wheel(0, 200);
  await expect(map).toBeVisible();
  await expect(map).not.toHaveClass(/is-hidden/);
  // A moment after the view stops, it fades and goes.
  await expect(map).toHaveCount(0, { timeout: 5000 });
  await page.getByRole('button', { name: 'Show the map' }).click();
  await expect(map).toBeVisible();
  await expect(map).not.toHaveClass(/is-hidden/);
});

interface Point {
  x: number;
  y: number;
}

/**
 * The segments of a far-out canvas's edge path (see editor/far-edges.tsx):
 * where each starts and ends, in flow coordinates or on screen. The selected
 * edges' path is read when `selected` is true.
 */
function farSegments(page: Page, space: 'flow' | 'screen', selected = false): Promise<{ from: Point; to: Point }[]> {
  return page.evaluate(
    ([onScreen, chosen]) => {
      const paths = Array.from(document.querySelectorAll<SVGPathElement>('.fb-far-edges path')).filter(
        (path) => path.classList.contains('selected') === chosen,
      );
      return paths.flatMap((path) => {
        const matrix = path.getScreenCTM();
        const place = (x: number, y: number) => {
          if (!onScreen || !matrix) return { x, y };
          const point = new DOMPoint(x, y).matrixTransform(matrix);
          return { x: point.x, y: point.y };
        };
        return (path.getAttribute('d') ?? '')
          .split('M')
          .filter((part: string) => part.trim() !== '')
          .map((part: string) => {
            const numbers = (part.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
            return {
              from: place(numbers[0] ?? NaN, numbers[1] ?? NaN),
              to: place(numbers[numbers.length - 2] ?? NaN, numbers[numbers.length - 1] ?? NaN),
            };
          });
      });
    },
    [space === 'screen', selected] as const,
  );
}

/** Where each edge React Flow draws starts and ends, by edge id, in flow coordinates (its path's own). */
function drawnEdgeEnds(page: Page): Promise<Record<string, { from: Point; to: Point }>> {
  return page.evaluate(() => {
    const ends: Record<string, { from: { x: number; y: number }; to: { x: number; y: number } }> = {};
    for (const edge of Array.from(document.querySelectorAll<SVGGElement>('.react-flow__edge'))) {
      const path = edge.querySelector<SVGPathElement>('path.react-flow__edge-path');
      const id = edge.dataset.id;
      if (!path || !id) continue;
      const from = path.getPointAtLength(0);
      const to = path.getPointAtLength(path.getTotalLength());
      ends[id] = { from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y } };
    }
    return ends;
  });
}

/**
 * How far (screen px) the end of edge `edgeId` lies from the place of `nodeId`'s
 * input port, where React Flow anchors it: the port's left side, half-way down.
 */
function edgeEndOffset(page: Page, edgeId: string, nodeId: string): Promise<number> {
  return page.evaluate(
    ([edge, node]) => {
      const path = document.querySelector<SVGPathElement>(
        `[data-testid="rf__edge-${edge}"] path.react-flow__edge-path`,
      );
      const port = document.querySelector(`[data-testid="rf__node-${node}"] .react-flow__handle.target`);
      const matrix = path?.getScreenCTM();
      if (!path || !port || !matrix) return Infinity;
      const end = path.getPointAtLength(path.getTotalLength()).matrixTransform(matrix);
      const box = port.getBoundingClientRect();
      return Math.hypot(end.x - box.left, end.y - (box.top + box.height / 2));
    },
    [edgeId, nodeId],
  );
}

test('a flow wider than the view opens drawing only what is in view; a node beyond it draws when reached, its edge on its port', async ({
  page,
  served,
}) => {
  // Three groups 20,000 px apart: fitted at the least zoom, the middle one alone is in view.
  const at = (x: number) => ({ position: { x, y: 0 } });
  const flow = buildFlow({
    id: 'wide',
    nodes: [
      { ...input(), ...at(0) },
      { ...template('left', 'from the left'), ...at(300) },
      { ...template('middle', 'then {{nodes.left.output}}'), ...at(20_000) },
      // A problem on the far node is the way there: its line in the Problems list.
      { ...template('far', 'and {{nodes.nowhere.output}}'), ...at(40_000) },
      { ...output('{{nodes.far.output}}'), ...at(40_300) },
    ],
    edges: ['input>left', 'left>middle', 'middle>far', 'far>result'],
  });
  // A draft, as an editor keeps a flow with a problem.
  withDatabase(served.db, (services) => services.flows.create(flow, { isDraft: true }));
  await page.goto(`${served.editorUrl}#/flow/wide`);
  await expect(page.getByTestId('rf__node-middle')).toBeVisible();
  await expect(page.getByTestId('rf__node-left')).toHaveCount(0);
  await expect(page.getByTestId('rf__node-far')).toHaveCount(0);
  // Zoomed this far out the edges are one path (FarEdges); those that cross the view are drawn,
  // to the places the unseen ends will have: from left's output port (its 10 px handle centred just inside
  // the card's 1 px border, x 300 + 219 + 5) to middle's input port (x 20,000 + 1 − 5), and on from middle to far.
  const spans = await farSegments(page, 'flow');
  const spanned = (from: number, to: number) =>
    spans.some((span) => Math.abs(span.from.x - from) < 0.5 && Math.abs(span.to.x - to) < 0.5);
  expect(spanned(524, 19_996)).toBe(true);
  expect(spanned(20_224, 39_996)).toBe(true);

  await page.getByRole('tab', { name: /Problems/ }).click();
  await page
    .getByRole('list', { name: 'Problems' })
    .getByRole('button', { name: /nowhere/ })
    .click();
  const far = page.getByTestId('rf__node-far');
  await expect(far).toBeVisible();
  await expect(far).toHaveClass(/selected/);
  await expect.poll(() => edgeEndOffset(page, 'e2', 'far')).toBeLessThan(1.5);
  const card = await far.boundingBox();
  // Moved, the edge still follows its port.
  if (!card) throw new Error('the far node has no box');
  await page.mouse.move(card.x + card.width / 2, card.y + 10);
  await page.mouse.down();
  await page.mouse.move(card.x + card.width / 2, card.y + 130, { steps: 5 });
  await page.mouse.up();
  expect((await far.boundingBox())?.y).toBeGreaterThan(card.y + 60);
  await expect.poll(() => edgeEndOffset(page, 'e2', 'far')).toBeLessThan(1.5);
  // Fitting the view counts every node, drawn or not (the flow is too wide to fit: the middle shows).
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+!');
  await expect(page.getByTestId('rf__node-middle')).toBeInViewport();
  await expect(far).toHaveCount(0);
});

test('zoomed far out, the edges are one path between the places React Flow joins, following a dragged node', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(branchingFlow('far-edges')));
  await page.goto(`${served.editorUrl}#/flow/far-edges`);
  const canvas = page.locator('.canvas-drop');
  await expect(canvas).toHaveAttribute('data-detail', 'full');
  // Selected close up, the error edge stays marked when zoomed out.
  await page.getByTestId('rf__edge-e2').click({ force: true });
  const near = (a: Point | undefined, b: Point | undefined) => !!a && !!b && Math.hypot(a.x - b.x, a.y - b.y) < 1;
  /** The far path's segments are React Flow's edges e0 and e1, and the selected one e2. */
  const expectFar = async (edges: Record<string, { from: Point; to: Point }>) => {
    const plain = await farSegments(page, 'flow');
    expect(plain).toHaveLength(2);
    for (const id of ['e0', 'e1']) {
      expect(plain.some((segment) => near(segment.from, edges[id]?.from) && near(segment.to, edges[id]?.to))).toBe(
        true,
      );
    }
    const [chosen] = await farSegments(page, 'flow', true);
    expect(near(chosen?.from, edges.e2?.from) && near(chosen?.to, edges.e2?.to)).toBe(true);
  };

  const closeUp = await drawnEdgeEnds(page);
  expect(Object.keys(closeUp).sort()).toEqual(['e0', 'e1', 'e2']);
  const look = (path: Locator) =>
    path.evaluate((element) => `${getComputedStyle(element).stroke} ${getComputedStyle(element).strokeDasharray}`);
  const errorLook = await look(page.getByTestId('rf__edge-e2').locator('path.react-flow__edge-path'));
  await zoomToDetail(page, 'box');
  // React Flow draws no edge (and the cards no port); the one path joins the same places.
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(page.locator('.react-flow__handle')).toHaveCount(0);
  await expectFar(closeUp);
  // The error edge looks as React Flow drew it: the error colour, dashed.
  expect(await look(page.locator('.fb-far-edges .edge-error path'))).toBe(errorLook);

  // Dragged, a node takes its edges along, during the drag and after it.
  const card = await page.getByTestId('rf__node-answer').boundingBox();
  if (!card) throw new Error('the answer node has no box');
  await page.mouse.move(card.x + card.width / 2, card.y + card.height / 2);
  await page.mouse.down();
  await page.mouse.move(card.x + card.width / 2, card.y + card.height / 2 + 40, { steps: 4 });
  // The input edge now ends lower down, with the card (by about 40 px on screen; the grid rounds the move).
  const during = await farSegments(page, 'flow');
  const intoAnswer = during.find((segment) => near(segment.from, closeUp.e0?.from));
  expect(intoAnswer?.to.y).toBeGreaterThan((closeUp.e0?.to.y ?? 0) + 20);
  expect(intoAnswer?.to.x).toBeCloseTo(closeUp.e0?.to.x ?? 0, 0);
  // While nodes are dragged the canvas is covered, so the pointer is not tested against every card.
  const shield = page.locator('.fb-drag-shield');
  await expect(shield).toBeVisible();
  await page.mouse.up();
  await expect(shield).toBeHidden();
  const farAfter = await farSegments(page, 'flow');
  // Should a drag ever end unannounced, the first press takes the cover away.
  await shield.evaluate((element) => ((element as HTMLElement).hidden = false));
  await page.mouse.click(card.x - 40, card.y - 40);
  await expect(shield).toBeHidden();

  // Close up again, the ports are back and measured: React Flow's edges lie where the far path had them.
  await zoomToDetail(page, 'full');
  const closeUpAfter = await drawnEdgeEnds(page);
  expect(Object.keys(closeUpAfter).sort()).toEqual(['e0', 'e1', 'e2']);
  for (const id of ['e0', 'e1']) {
    const edge = closeUpAfter[id];
    expect(farAfter.some((segment) => near(segment.from, edge?.from) && near(segment.to, edge?.to))).toBe(true);
  }
  expect(closeUpAfter.e0?.to.y).toBeGreaterThan((closeUp.e0?.to.y ?? 0) + 20);
  // The canvas takes clicks again: a card is selected by one.
  await page.getByTestId('rf__node-answer').click();
  await expect(page.getByTestId('rf__node-answer')).toHaveClass(/selected/);
});

test('a big flow opens far out with its cards shown as first drawn, no edge before them, then every edge in one path', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(generatedFlow(400, 'big')));
  // Watches from the first script on: whenever the far path changes, are any cards shown yet?
  await page.addInitScript(() => {
    const seen = { earlyPaths: 0, drawnPaths: 0, hiddenFrames: 0, shownFrames: 0 };
    (window as unknown as { farEdgesSeen: typeof seen }).farEdgesSeen = seen;
    // At each frame until cards show: were cards drawn hidden, to be measured first?
    const onFrame = () => {
      const cards = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node'));
      if (cards.some((card) => card.style.visibility === 'hidden')) seen.hiddenFrames++;
      if (cards.length > 0 && cards.every((card) => card.style.visibility !== 'hidden')) seen.shownFrames++;
      else requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
    new MutationObserver(() => {
      const drawn = Array.from(document.querySelectorAll('.fb-far-edges path')).filter((p) => p.getAttribute('d'));
      if (drawn.length === 0) return;
      const shown = Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node')).some(
        (node) => node.style.visibility !== 'hidden',
      );
      if (shown) seen.drawnPaths++;
      else seen.earlyPaths++;
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['d'] });
  });
  await page.goto(`${served.editorUrl}#/flow/big`);
  const farEdgesSeen = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            farEdgesSeen: { earlyPaths: number; drawnPaths: number; hiddenFrames: number; shownFrames: number };
          }
        ).farEdgesSeen,
    );
  await expect(page.locator('.canvas-drop')).toHaveAttribute('data-detail', 'box');
  await expect(page.locator('.fb-far-edges')).toHaveAttribute('data-edges', '400');
  await expect.poll(async () => (await farEdgesSeen()).drawnPaths).toBeGreaterThan(0);
  // React Flow draws no edge to a card it has not measured; the far path did, at guessed places.
  expect((await farEdgesSeen()).earlyPaths).toBe(0);
  // Far out the cards have no ports: they are given their box and show as first drawn, not drawn
  // hidden, measured and drawn again (offscreen.ts; that took opening a 1,000-node flow 100 ms more).
  await expect.poll(async () => (await farEdgesSeen()).shownFrames).toBe(1);
  expect((await farEdgesSeen()).hiddenFrames).toBe(0);
  expect(await farSegments(page, 'flow')).toHaveLength(400);

  // Closer, the edges React Flow draws end on the ports it measured, before and after a card is selected
  // (React Flow takes the ports a node was given over measured ones each time the node changes).
  await zoomToDetail(page, 'label');
  // Edge e<i> joins n<i-1> to n<i> (generatedFlow): one whose target card is drawn.
  const step = await page.evaluate(() => {
    for (const edge of Array.from(document.querySelectorAll<SVGGElement>('.react-flow__edge'))) {
      const i = Number(edge.dataset.id?.slice(1));
      if (i > 0 && i < 399 && document.querySelector(`[data-testid="rf__node-n${i}"]`)) return i;
    }
    return undefined;
  });
  if (step === undefined) throw new Error('no edge into a drawn card');
  await expect.poll(() => edgeEndOffset(page, `e${step}`, `n${step}`)).toBeLessThan(1.5);
  await page.getByTestId(`rf__node-n${step}`).click();
  await expect(page.getByTestId(`rf__node-n${step}`)).toHaveClass(/selected/);
  await expect.poll(() => edgeEndOffset(page, `e${step}`, `n${step}`)).toBeLessThan(1.5);
});

test('far out, a big flow draws its edges in pieces: every edge once, and a card grabbed and let go redraws only its own edges’ piece', async ({
  page,
  served,
}) => {
  // 1,200 edges: three pieces of at most 500 (far-edges.tsx). Edges e600 and e601, n600's, are both in the second.
  withDatabase(served.db, (services) => services.flows.create(generatedFlow(1200, 'pieces')));
  await page.goto(`${served.editorUrl}#/flow/pieces`);
  await expect(page.locator('.canvas-drop')).toHaveAttribute('data-detail', 'box');
  await expect(page.locator('.fb-far-edges')).toHaveAttribute('data-edges', '1200');
  await expect.poll(async () => (await farSegments(page, 'flow')).length).toBe(1200);
  const plainPaths = () =>
    page.locator('.fb-far-edges path.plain').evaluateAll((paths) => paths.map((path) => path.getAttribute('d')));
  const before = await plainPaths();
  expect(before).toHaveLength(3);

  const card = await page.getByTestId('rf__node-n600').boundingBox();
  if (!card) throw new Error('n600 is not drawn');
  const [x, y] = [card.x + card.width / 2, card.y + card.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 20, y + 30, { steps: 4 });
  await expect(page.getByTestId('rf__node-n600')).toHaveClass(/dragging/);
  // While it is dragged, its two edges are drawn apart from the pieces, the other 1,198 where they were.
  await expect.poll(async () => (await farSegments(page, 'flow')).length).toBe(1200);
  const during = await plainPaths();
  expect([during[0], during[2]]).toEqual([before[0], before[2]]);
  expect(during[1]).not.toBe(before[1]);
  await page.mouse.up();
  await expectSaved(page);
  const moved = storedFlow(served.db, 'pieces').nodes.find((node) => node.id === 'n600')?.position;
  expect(moved?.y).toBeGreaterThan(1680);

  // Let go, the piece with its edges is drawn again with them where the card now is; the other two as they were.
  await expect.poll(async () => (await plainPaths()).length).toBe(3);
  const after = await plainPaths();
  expect([after[0], after[2]]).toEqual([before[0], before[2]]);
  expect(after[1]).not.toBe(before[1]);
  const segments = await farSegments(page, 'flow');
  expect(segments).toHaveLength(1200);
  // e600, n599's one edge out (n599 stands at x 10,780, y 1,540, its right side at 11,000), now ends on n600's left side where it was let go.
  const out = segments.filter((segment) => segment.from.x > 10_900 && segment.from.y > 1540 && segment.from.y < 1680);
  expect(out).toHaveLength(1);
  expect(Math.abs((out[0]?.to.x ?? NaN) - (moved?.x ?? NaN))).toBeLessThan(10);
  expect(out[0]?.to.y).toBeGreaterThan(moved?.y ?? NaN);
  expect(out[0]?.to.y).toBeLessThan((moved?.y ?? NaN) + 140);
});

test('the canvas dots mark the grid nodes snap to, close up and zoomed far out, where they keep apart', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(branchingFlow('grid-dots')));
  await page.goto(`${served.editorUrl}#/flow/grid-dots`);
  await expect(page.locator('.canvas-drop')).toHaveAttribute('data-detail', 'full');
  /** Where the dots are on screen (one every `gap` px from `dot`), and where the flow's origin is, at what zoom. */
  const dots = () =>
    page.evaluate(() => {
      const grid = getComputedStyle(document.querySelector('.fb-canvas-grid') as Element);
      const [gap = 0, y = 0] = [parseFloat(grid.backgroundSize), parseFloat(grid.backgroundPositionY)];
      const x = parseFloat(grid.backgroundPositionX);
      const view = new DOMMatrix(
        getComputedStyle(document.querySelector('.react-flow__viewport') as Element).transform,
      );
      return {
        image: grid.backgroundImage,
        gap,
        dot: { x: x + gap / 2, y: y + gap / 2 },
        origin: { x: view.e, y: view.f },
        zoom: view.a,
      };
    });
  /** Whole grid cells (of `cell` flow units) from the flow's origin to a dot: the dots sit on grid points. */
  const expectOnGrid = (found: Awaited<ReturnType<typeof dots>>, cell: number) => {
    expect(found.image).toContain('radial-gradient');
    expect(found.gap).toBeCloseTo(cell * found.zoom, 3);
    for (const axis of ['x', 'y'] as const) {
      const cells = (found.origin[axis] - found.dot[axis]) / found.gap;
      expect(Math.abs(cells - Math.round(cells))).toBeLessThan(0.01);
    }
  };
  expectOnGrid(await dots(), 20);

  // Zoomed far out, every second, fourth… dot is drawn: 10 px apart at least, still on grid points.
  await zoomToDetail(page, 'box');
  const far = await dots();
  expect(far.gap).toBeGreaterThanOrEqual(10);
  const spread = Math.round(far.gap / far.zoom / 20);
  expect([2, 4, 8, 16]).toContain(spread);
  expectOnGrid(far, 20 * spread);
});

test('zoomed out until labels would be under 4 px, cards leave them out and keep their size and tooltip; closer, they are back', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(branchingFlow('far-labels')));
  await page.goto(`${served.editorUrl}#/flow/far-labels`);
  const card = page.getByTestId('rf__node-answer');
  await zoomToDetail(page, 'box');
  /** The label as drawn on screen: its text, and its height in screen pixels (0 when left out). */
  const drawnLabel = () =>
    card.locator('.fb-node-box').evaluate((box: HTMLElement) => {
      const zoom = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport') as Element).transform)
        .a;
      return { text: box.textContent, px: parseFloat(getComputedStyle(box).fontSize) * zoom, title: box.title };
    });
  const readable = await drawnLabel();
  expect(readable.px).toBeGreaterThanOrEqual(4);
  const size = await card.evaluate((element: HTMLElement) => [element.offsetWidth, element.offsetHeight]);

  const canvas = page.locator('.canvas-drop');
  for (let i = 0; i < 12 && (await canvas.getAttribute('data-labels')) !== 'hidden'; i++) {
    await page.getByRole('button', { name: 'Zoom Out' }).click();
    await page.waitForTimeout(150);
  }
  await expect(canvas).toHaveAttribute('data-labels', 'hidden');
  const smudge = await drawnLabel();
  expect(smudge.px).toBe(0);
  // The label is still the card's tooltip and its text (for screen readers and Find); the box is as large.
  expect(smudge.title).toBe(readable.title);
  expect(smudge.text).toBe(readable.text);
  expect(await card.evaluate((element: HTMLElement) => [element.offsetWidth, element.offsetHeight])).toEqual(size);

  // One step closer, the labels are back.
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await expect(canvas).not.toHaveAttribute('data-labels', 'hidden');
  expect((await drawnLabel()).px).toBeGreaterThanOrEqual(4);
});

test('zoomed far out, a click on an edge selects it (Ctrl adds), and Delete removes it', async ({ page, served }) => {
  withDatabase(served.db, (services) => services.flows.create(branchingFlow('far-click')));
  await page.goto(`${served.editorUrl}#/flow/far-click`);
  await zoomToDetail(page, 'box');
  const selected = page.locator('.fb-far-edges path.selected');
  await expect(selected).toHaveCount(0);
  // The middle of input → answer, where the far path draws it (a bezier between level ports passes through it).
  const [intoAnswer] = (await farSegments(page, 'screen')).filter((segment) => segment.from.x < segment.to.x - 10);
  if (!intoAnswer) throw new Error('no far segment into the answer node');
  const middle = { x: (intoAnswer.from.x + intoAnswer.to.x) / 2, y: (intoAnswer.from.y + intoAnswer.to.y) / 2 };
  await page.mouse.click(middle.x, middle.y);
  await expect(selected).toHaveCount(1);
  const [chosen] = await farSegments(page, 'screen', true);
  expect(chosen?.from.x).toBeCloseTo(intoAnswer.from.x, 0);
  // Ctrl+click adds answer → result to the selection, and a second one takes it out.
  const toResult = (await farSegments(page, 'screen')).find((segment) => segment.to.y < segment.from.y - 10);
  if (!toResult) throw new Error('no far segment up to the result node');
  const middleUp = { x: (toResult.from.x + toResult.to.x) / 2, y: (toResult.from.y + toResult.to.y) / 2 };
  await page.keyboard.down('Control');
  await page.mouse.click(middleUp.x, middleUp.y);
  await expect.poll(async () => (await farSegments(page, 'screen', true)).length).toBe(2);
  await page.mouse.click(middleUp.x, middleUp.y);
  await page.keyboard.up('Control');
  await expect.poll(async () => (await farSegments(page, 'screen', true)).length).toBe(1);
  // Beside the edge (20 px off), a click on the pane selects nothing.
  await page.mouse.click(middle.x, middle.y - 20);
  await expect(selected).toHaveCount(0);
  await page.mouse.click(middle.x, middle.y);
  await expect(selected).toHaveCount(1);
  await page.keyboard.press('Delete');
  await expectSaved(page);
  const stored = storedFlow(served.db, 'far-click');
  expect(stored.edges.map((edge) => `${edge.source}>${edge.target}`).sort()).toEqual([
    'answer>fallback',
    'answer>result',
  ]);
});

test('the inspector lists a node’s edges in words: zoomed far out and from the keyboard, one leads to the node at its other end, one is removed, one is added by name', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.flows.create(branchingFlow('in-words')));
  await page.goto(`${served.editorUrl}#/flow/in-words`);
  await zoomToDetail(page, 'box');
  await page.getByTestId('rf__node-answer').click();
  const connections = page.getByRole('region', { name: 'Connections' });
  await expect(connections.getByRole('listitem')).toHaveText([
    /^from\s+input\s+inputs/,
    /^answer to\s+result/,
    /^on error to\s+fallback/,
  ]);

  // Removed with the keyboard: the stored flow loses that edge.
  await connections.getByRole('button', { name: 'Remove the edge to fallback' }).focus();
  await page.keyboard.press('Enter');
  await expect(connections.getByRole('listitem')).toHaveCount(2);
  await expectSaved(page);
  const edges = () =>
    storedFlow(served.db, 'in-words')
      .edges.map((edge) => `${edge.source}.${edge.sourcePort}>${edge.target}`)
      .sort();
  expect(edges()).toEqual(['answer.out>result', 'input.out>answer']);

  // Added again by name, from the error port, with the keyboard alone.
  await connections.getByRole('combobox', { name: 'From port' }).selectOption({ label: 'on error' });
  await connections.getByRole('searchbox', { name: 'Connect to' }).fill('fall');
  await expect(connections.getByRole('list', { name: 'Nodes to connect to' }).getByRole('button')).toHaveText([
    /fallback/,
  ]);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(connections.getByRole('listitem')).toHaveText([
    /from\s+input/,
    /answer to\s+result/,
    /on error to\s+fallback/,
  ]);
  await expectSaved(page);
  expect(edges()).toEqual(['answer.error>fallback', 'answer.out>result', 'input.out>answer']);

  // A name leads to the node at the other end: selected, its own edges listed.
  await connections.getByRole('button', { name: 'result', exact: true }).click();
  await expect(page.getByTestId('rf__node-result')).toHaveClass(/selected/);
  await expect(connections.getByRole('listitem')).toHaveText([/^from\s+answer\s+answer/]);
});

test('Layout with two or more nodes selected lays out only those, where they were (a row off any card they would cover), as n8n’s tidy-up of a selection', async ({
  page,
  served,
}) => {
  const flow = buildFlow({
    id: 'tidy',
    nodes: [
      { ...input(), position: { x: 0, y: 0 } },
      { ...template('a', 'A'), position: { x: 700, y: 500 } },
      { ...template('b', 'B {{nodes.a.output}}'), position: { x: 300, y: 900 } },
      // Just below where a and b will be laid out: they go a row up, off it, rather than over it
      // (a row down would still cover it).
      { ...output('{{nodes.b.output}}'), position: { x: 400, y: 600 } },
    ],
    edges: ['input>a', 'a>b', 'b>result'],
  });
  await openFlow(page, served, flow);
  const positions = () => Object.fromEntries(storedFlow(served.db, 'tidy').nodes.map((n) => [n.id, n.position]));
  await page.getByTestId('rf__node-a').click();
  await page.getByTestId('rf__node-b').click({ modifiers: ['Control'] });
  // The right-click menu offers it for the selection, with its key.
  await page.getByTestId('rf__node-b').click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: /Layout these\s*Ctrl\+Shift\+L/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+L');
  await expect(page.locator('.toast')).toContainText('Laid out the 2 selected nodes; the others stay where they are');
  // a then b in a row from where the two began (their top-left corner), moved one row (140) up
  // so that neither covers result; input and result not moved.
  await expect.poll(() => positions().b?.y).toBe(360);
  const after = positions();
  expect(after).toMatchObject({ input: { x: 0, y: 0 }, a: { x: 300, y: 360 }, result: { x: 400, y: 600 } });
  expect(after.b?.x).toBeGreaterThanOrEqual(300 + NODE_WIDTH);
  // One edit: Undo puts both back.
  await page.keyboard.press('Control+z');
  await expect.poll(() => positions().a).toEqual({ x: 700, y: 500 });
  expect(positions().b).toEqual({ x: 300, y: 900 });
});

test('the arrow keys move the selected card a grid step (Shift: four), saved as it moves, one Undo for the run of presses', async ({
  page,
  served,
}) => {
  await openFlow(page, served, summaryChain());
  const at = () => storedFlow(served.db, 'chain').nodes.find((n) => n.id === 'clean')?.position;
  await page.getByTestId('rf__node-clean').click();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  // The card moved on screen and in the database (a reload keeps it where it went).
  await expect.poll(at).toEqual({ x: 300 + 4 * 20, y: 100 + 4 * 20 });
  // The five presses are one Undo step, and Redo brings them back.
  await page.keyboard.press('Control+z');
  await expect.poll(at).toEqual({ x: 300, y: 100 });
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(at).toEqual({ x: 380, y: 180 });
  await page.reload();
  await expect(page.getByTestId('rf__node-clean')).toBeVisible();
  const box = await page.getByTestId('rf__node-clean').boundingBox();
  const input = await page.getByTestId('rf__node-input').boundingBox();
  // Drawn where it was saved: right of and below the input card, as moved.
  expect(box && input && box.y > input.y).toBe(true);
  expect(at()).toEqual({ x: 380, y: 180 });
});
