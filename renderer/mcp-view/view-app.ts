// First: ext-apps builds zod schemas as it loads (see the file).
import '../public/zod-config.js';
import { App } from '@modelcontextprotocol/ext-apps';
import { isPictureUrl } from '../../core/model/data-urls';

/**
 * A flow's view, as an MCP App: the page a client shows in a sandboxed frame
 * instead of reading the result as text. It connects to the client through
 * ext-apps' App and draws the tool result's structuredContent: values as
 * rows, lists of records as tables. Data is only ever set as text, so a
 * value can never become markup.
 */
const main = document.getElementById('view') as HTMLElement;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  return made;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const scalar = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);

function table(rows: Record<string, unknown>[]): HTMLElement {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const made = element('table');
  const head = made.createTHead().insertRow();
  for (const column of columns) head.appendChild(element('th', column));
  const body = made.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    for (const column of columns) line.insertCell().textContent = scalar(row[column]);
  }
  return made;
}

/** A picture's data: URL (an HTTP answer's image, an MCP tool's), shown as the picture. */
function picture(url: string): HTMLElement {
  const image = element('img');
  image.src = url;
  image.alt = `${url.slice(5, url.indexOf(';'))} picture`;
  return image;
}

function valueOf(value: unknown): HTMLElement {
  if (typeof value === 'string' && isPictureUrl(value)) return picture(value);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isRecord)) return table(value);
    const list = element('ul');
    for (const item of value) list.appendChild(element('li', scalar(item)));
    return list;
  }
  if (isRecord(value)) return fields(value);
  return element('span', scalar(value));
}

function fields(data: Record<string, unknown>): HTMLElement {
  const list = element('dl');
  for (const [name, value] of Object.entries(data)) {
    list.appendChild(element('dt', name));
    const cell = element('dd');
    cell.appendChild(valueOf(value));
    list.appendChild(cell);
  }
  return list;
}

function show(content: HTMLElement | string): void {
  const body = main.querySelector('.content') ?? main.appendChild(element('section'));
  body.className = 'content';
  body.replaceChildren(typeof content === 'string' ? element('p', content) : content);
}

/** The run as the built-in view shows it (core/model/run-view.ts, sent in the result's `_meta`). */
interface RunViewData {
  flowName: string;
  status: string;
  durationMs?: number;
  nodes: {
    id: string;
    label: string;
    status: string;
    durationMs?: number;
    output?: string;
    error?: string;
    passes?: number;
  }[];
}
const RUN_VIEW_META_KEY = 'dev.flowbench/run';

const timing = (ms: number | undefined) =>
  ms === undefined ? '' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The built-in view: the flow's nodes in order, each with how it ended and what it gave. */
function runNodes(run: RunViewData): HTMLElement {
  const list = element('section');
  list.appendChild(
    element('p', [`${run.flowName}: ${run.status}`, timing(run.durationMs)].filter(Boolean).join(' · ')),
  );
  for (const node of run.nodes) {
    const card = element('article');
    card.className = `node ${node.status.replace(/\s+/g, '-')}`;
    card.setAttribute('aria-label', node.label);
    const head = element('header');
    head.appendChild(element('strong', node.label));
    const facts = [node.status, timing(node.durationMs), node.passes ? `${node.passes} passes` : ''];
    head.appendChild(element('span', facts.filter(Boolean).join(' · '))).className = 'status';
    card.appendChild(head);
    if (node.error) card.appendChild(element('pre', node.error));
    else if (node.output && isPictureUrl(node.output)) card.appendChild(picture(node.output));
    else if (node.output) card.appendChild(element('pre', node.output));
    list.appendChild(card);
  }
  return list;
}

const app = new App({ name: 'Flowbench view', version: '1' });
app.ontoolresult = (result) => {
  if (main.dataset.kind === 'run') {
    const run = result._meta?.[RUN_VIEW_META_KEY] as RunViewData | undefined;
    show(run ? runNodes(run) : 'This result carries no run to show.');
    main.dataset.state = result.isError ? 'error' : 'shown';
    return;
  }
  if (result.isError) {
    const text = (result.content ?? []).map((c) => ('text' in c ? c.text : '')).join('\n');
    show(text || 'The flow failed.');
    main.dataset.state = 'error';
    return;
  }
  const data = result.structuredContent;
  show(isRecord(data) ? fields(data) : 'The flow returned no structured data.');
  main.dataset.state = 'shown';
};
void app.connect();
