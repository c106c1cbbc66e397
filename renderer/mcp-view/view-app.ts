import { App } from '@modelcontextprotocol/ext-apps';

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

function valueOf(value: unknown): HTMLElement {
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

const app = new App({ name: 'Flowbench view', version: '1' });
app.ontoolresult = (result) => {
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
