import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../core/api/contract';
import { startDesktop, type Desktop, type DesktopOptions } from '../../electron/desktop/desktop';
import { openServices } from '../../core/services/open-services';
import { ROOT, runCli } from '../helpers/cli';
import { buildFlow, greeterFlow, input, llm, output } from '../helpers/flow-builder';
import { startOpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';
import { FakeShell, type FakeWindow } from './fake-shell';

/**
 * The desktop app's main process, in plain Node: Electron's API is a double
 * (fake-shell.ts), while the database file, the API behind IPC and the MCP
 * endpoint are real, and the MCP SDK's own client calls the endpoint.
 */
const tempDir = useTempDir();
const EXAMPLE = join(ROOT, 'resources', 'examples', 'triage-ticket.json');
const PAGE = join(ROOT, 'out', 'renderer', 'index.html');
const started: Desktop[] = [];
const blockers: Server[] = [];

afterEach(async () => {
  for (const desktop of started.splice(0)) {
    await desktop.http.close();
    desktop.services.close();
  }
  for (const server of blockers.splice(0)) server.close();
});

async function launch(shell: FakeShell, options: Partial<DesktopOptions> = {}) {
  const desktop = await startDesktop(shell.shell, {
    database: { path: join(tempDir(), 'app.db'), isDefault: false },
    port: 0,
    page: { file: PAGE },
    preload: '/app/out/preload/index.cjs',
    argv: ['/opt/Flowbench/flowbench'],
    cwd: tempDir(),
    node: { command: '/opt/Flowbench/flowbench', env: { ELECTRON_RUN_AS_NODE: '1' } },
    ...options,
  });
  if (desktop) started.push(desktop);
  return desktop;
}

/** A flow that waits on its model. */
const askFlow = buildFlow({
  id: 'ask',
  parameters: [{ name: 'question', type: 'string' }],
  nodes: [input(), llm('answer', 'Answer: {{inputs.question}}'), output('{{nodes.answer.output}}')],
  edges: ['input>answer', 'answer>result'],
});

const commandsSent = (window: FakeWindow) =>
  window.webContents.sent
    .map((s) => s.payload as HostEvent)
    .filter((e) => e.type === 'app.command')
    .map((e) => (e.type === 'app.command' ? e.command : undefined));

describe('the desktop main process', () => {
  it('a second launch hands over to the first and opens nothing', async () => {
    const shell = new FakeShell(tempDir(), false);
    expect(await launch(shell)).toBeUndefined();
    expect(shell.quitCalled).toBe(true);
    expect(shell.windows).toHaveLength(0);
  });

  it('opens one sandboxed window on the built page, shown once painted, with every permission denied', async () => {
    const shell = new FakeShell(tempDir());
    await launch(shell);
    const [window] = shell.windows;
    expect(window?.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
    expect(window?.loaded).toBe(PAGE);
    expect(window?.shown).toBe(false);
    window?.emit('ready-to-show');
    expect(window?.shown).toBe(true);
    expect(shell.permissionsDenied).toBe(true);
  });

  it('asks before closing a page that holds text it could not save, and closes it only when told to', async () => {
    const shell = new FakeShell(tempDir());
    await launch(shell);
    const contents = shell.windows[0]!.webContents;
    expect(contents.unloadPrevented()).toBe(false);
    shell.leaveAnswer = true;
    expect(contents.unloadPrevented()).toBe(true);
    expect(shell.leaveAsked).toBe(2);
  });

  it("never navigates away or opens windows: web links go to the system browser, the app's routes stay", async () => {
    const shell = new FakeShell(tempDir());
    await launch(shell);
    const contents = shell.windows[0]!.webContents;
    expect(contents.openHandler?.({ url: 'https://modelcontextprotocol.io/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.navigate('https://evil.example/')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(shell.opened).toEqual(['https://modelcontextprotocol.io/', 'https://evil.example/']);
    expect(contents.navigate(`file://${PAGE}#/connect`)).toBe(true);
  });

  it('serves the typed API over IPC to its own page only, checking what it is asked', async () => {
    const shell = new FakeShell(tempDir());
    const desktop = await launch(shell);
    const page = `file://${PAGE}#/`;
    const created = (await shell.invoke(page, 'flows', 'create', { name: 'Made in the app' })) as {
      ok: boolean;
    };
    expect(created.ok).toBe(true);
    expect(desktop?.services.flows.list().map((f) => f.name)).toEqual(['Made in the app']);

    expect(await shell.invoke('https://evil.example/', 'flows', 'list', {})).toMatchObject({
      ok: false,
      error: { code: 'USAGE_ERROR' },
    });
    expect(await shell.invoke(page, { service: 'flows' }, 'list', {})).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(await shell.invoke(page, 'flows', 'create', { name: 42 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(desktop?.services.flows.list()).toHaveLength(1);
  });

  it("the menu sends the editor's commands with their shortcuts shown and left to the page", async () => {
    const shell = new FakeShell(tempDir());
    await launch(shell);
    expect(shell.menuItem('Undo')).toMatchObject({ accelerator: 'CmdOrCtrl+Z', registerAccelerator: false });
    expect(shell.menuItem('Auto-layout')).toMatchObject({ accelerator: 'CmdOrCtrl+Shift+L' });
    // Ctrl+H off a Mac; there Cmd+H hides the app, and Replace is Cmd+Option+F.
    expect(shell.menuItem('Replace…')).toMatchObject({ accelerator: 'Ctrl+H', registerAccelerator: false });
    const window = shell.windows[0]!;
    // Sent before the page loaded: kept, then delivered in order.
    shell.click('Undo');
    expect(commandsSent(window)).toEqual([]);
    window.webContents.finishLoad();
    shell.click('Run with Test Inputs');
    shell.click('Connect a Client…');
    shell.click('Replace…');
    expect(commandsSent(window)).toEqual([{ name: 'undo' }, { name: 'run' }, { name: 'connect' }, { name: 'replace' }]);
  });

  it('imports a flow file named at launch, opened from the menu, or passed on by a second launch', async () => {
    const shell = new FakeShell(tempDir());
    await launch(shell, { argv: ['/opt/Flowbench/flowbench', '--no-sandbox', EXAMPLE] });
    const window = shell.windows[0]!;
    window.webContents.finishLoad();
    const text = readFileSync(EXAMPLE, 'utf8');
    expect(commandsSent(window)).toEqual([{ name: 'import-file', fileName: 'triage-ticket.json', text }]);

    shell.dialogAnswer = { canceled: false, filePaths: [EXAMPLE, join(tempDir(), 'gone.json')] };
    shell.click('Open Flow File…');
    await new Promise((resolve) => setImmediate(resolve));
    expect(commandsSent(window).slice(1)).toEqual([
      { name: 'import-file', fileName: 'triage-ticket.json', text },
      { name: 'import-refused', fileName: 'gone.json', message: expect.stringContaining('gone.json') },
    ]);

    window.minimized = true;
    shell.appEvents.emit(
      'second-instance',
      {},
      ['/opt/Flowbench/flowbench', 'triage-ticket.json'],
      join(ROOT, 'resources', 'examples'),
    );
    expect(window.minimized).toBe(false);
    expect(window.focused).toBe(true);
    expect(commandsSent(window).at(-1)).toEqual({ name: 'import-file', fileName: 'triage-ticket.json', text });
    expect(shell.windows).toHaveLength(1);
  });

  it('a second launch while the app is still starting opens no window of its own; its file waits for the first', async () => {
    const shell = new FakeShell(tempDir());
    let ready = () => undefined as void;
    shell.ready = new Promise<void>((resolve) => (ready = resolve));
    const launching = launch(shell);
    shell.appEvents.emit('second-instance', {}, ['/opt/Flowbench/flowbench', EXAMPLE], ROOT);
    expect(shell.windows).toHaveLength(0);
    ready();
    await launching;
    expect(shell.windows).toHaveLength(1);
    shell.windows[0]!.webContents.finishLoad();
    expect(commandsSent(shell.windows[0]!)).toEqual([
      { name: 'import-file', fileName: 'triage-ticket.json', text: readFileSync(EXAMPLE, 'utf8') },
    ]);
  });

  it('serves MCP over HTTP with its token, and says when its port was taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    blockers.push(blocker);
    const taken = (blocker.address() as { port: number }).port;
    const shell = new FakeShell(tempDir());
    const desktop = await launch(shell, { port: taken });
    expect(desktop?.http.host.port).not.toBe(taken);

    // What the Connect screen shows: the URL in use, its token, why it is not the port asked for,
    // and a stdio entry that runs this binary as Node (no window needed).
    const page = `file://${PAGE}#/connect`;
    expect(await shell.invoke(page, 'clients', 'endpoint', {})).toEqual({
      ok: true,
      value: {
        http: {
          url: `http://127.0.0.1:${desktop!.http.host.port}/mcp`,
          headers: { Authorization: `Bearer ${desktop!.http.host.token}` },
        },
        stdio: {
          command: '/opt/Flowbench/flowbench',
          args: [expect.stringMatching(/bin[/\\]flowbench$/), 'mcp', '--db', join(tempDir(), 'app.db')],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
        serving: { running: true, note: expect.stringContaining(`port ${taken} is taken`) },
      },
    });
    const client = new Client({ name: 'desktop-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${desktop!.http.host.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${desktop!.http.host.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('flows_list');
    await client.close();
  });

  it('keeps API keys with safeStorage where the OS holds its key, and says plain text where it does not', async () => {
    const shell = new FakeShell(tempDir());
    const desktop = await launch(shell);
    const page = `file://${PAGE}#/providers`;
    const key = 'sk-app-0123456789abcdef';
    await shell.invoke(page, 'providers', 'set', { provider: { name: 'paid', kind: 'openai', apiKey: key } });
    const listed = (await shell.invoke(page, 'providers', 'list', {})) as {
      value: { name: string; keyStore?: string }[];
    };
    expect(listed.value.find((p) => p.name === 'paid')?.keyStore).toBe('safe-storage');
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(desktop!.services.providers.resolve('paid').apiKey).toBe(key);
    desktop!.services.close();
    started.pop();
    await desktop!.http.close();
    expect(readFileSync(join(tempDir(), 'app.db')).includes(key)).toBe(false);

    // Linux without a secret service: Electron's "basic_text" key is public, so it is plain text, said so.
    const bare = new FakeShell(tempDir());
    bare.encryption = 'basic_text';
    await launch(bare, { database: { path: join(tempDir(), 'bare.db'), isDefault: false } });
    const info = (await bare.invoke(page, 'host', 'info', {})) as { value: { secrets: { store: string } } };
    expect(info.value.secrets.store).toBe('plain-text');
  });

  it('moves the MCP endpoint to the port chosen on the Connect screen, now and at the next launch', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    blockers.push(blocker);
    const taken = (blocker.address() as { port: number }).port;
    const free = await freePort();
    const shell = new FakeShell(tempDir());
    const desktop = await launch(shell, { port: undefined });
    const page = `file://${PAGE}#/connect`;
    const before = desktop!.http.host.port;

    expect(await shell.invoke(page, 'clients', 'setPort', { port: taken })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(`still serves on ${before}`) },
    });
    const moved = (await shell.invoke(page, 'clients', 'setPort', { port: free })) as {
      value: { http: { url: string } };
    };
    expect(moved.value.http.url).toBe(`http://127.0.0.1:${free}/mcp`);
    await expect(fetch(`http://127.0.0.1:${before}/mcp`)).rejects.toThrow();
    const client = new Client({ name: 'desktop-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(moved.value.http.url), {
        requestInit: { headers: { Authorization: `Bearer ${desktop!.http.host.token}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();

    await desktop!.http.close();
    desktop!.services.close();
    started.pop();
    const relaunched = await launch(new FakeShell(tempDir()), { port: undefined });
    expect(relaunched!.http.host.port).toBe(free);
  });

  it('tells its window of runs and flow edits that other processes commit to its database, each as what it is', async () => {
    const path = join(tempDir(), 'app.db');
    const other = openServices(path);
    other.flows.create(greeterFlow('shared'));
    other.close();
    const shell = new FakeShell(tempDir());
    await launch(shell);
    const events = () =>
      shell.windows[0]!.webContents.sent.map((s) => s.payload as HostEvent).filter(
        (e) => e.type === 'runs.changed' || e.type === 'flows.changed',
      );
    // A run stored by the CLI: the window's lists of runs ask again; its open flow is left as it is.
    expect((await runCli(['--db', path, 'run', 'shared', '--input', 'who=Ada'])).code).toBe(0);
    await expect.poll(events, { timeout: 5000 }).toEqual([{ type: 'runs.changed' }]);
    // A flow edited by another process: the window reads flows again.
    const editor = openServices(path);
    editor.flows.applyChanges('shared', { updateNodes: [{ id: 'greet', label: 'Edited elsewhere' }] });
    editor.close();
    await expect
      .poll(events, { timeout: 5000 })
      .toEqual([{ type: 'runs.changed' }, { type: 'flows.changed', flowIds: [] }]);
  });

  it('quitting waits for a run that waits on a model to end cancelled, saying why, and stored, then quits', async () => {
    const model = await startOpenAiServer(() => ({ content: 'late', delayMs: 60_000 }));
    try {
      const shell = new FakeShell(tempDir());
      const desktop = await launch(shell);
      started.splice(started.indexOf(desktop!), 1); // Closed by the quit itself.
      desktop!.services.providers.set(
        { name: 'local', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'm' },
        true,
      );
      desktop!.services.flows.create(askFlow);
      const page = `file://${PAGE}#/`;
      const run = (await shell.invoke(page, 'runs', 'start', { flowId: 'ask', inputs: { question: 'Why?' } })) as {
        value: { runId: string };
      };
      await expect.poll(() => model.requests.length).toBe(1);

      let prevented = false;
      shell.appEvents.emit('will-quit', { preventDefault: () => (prevented = true) });
      // Electron would have ended the process here, the run left running and its end lost.
      expect(prevented).toBe(true);
      await expect.poll(() => shell.quitCalled, { timeout: 5_000 }).toBe(true);
      const services = openServices(desktop!.services.database.path);
      try {
        expect(services.runs.get(run.value.runId)).toMatchObject({
          status: 'cancelled',
          error: { code: 'CANCELLED', message: 'the Flowbench app was closed while the run was going' },
        });
      } finally {
        services.close();
      }
    } finally {
      await model.close();
    }
  });

  it("its window and a browser page it serves share one host: each hears the other's edits and runs", async () => {
    const shell = new FakeShell(tempDir());
    const desktop = await launch(shell);
    const page = `file://${PAGE}#/`;
    const { host } = desktop!.http;
    const session = new URL(host.editorUrl).searchParams.get('session')!;
    const browser = await listenToEvents(`${host.url}/api/events?session=${session}`);
    const overHttp = async (service: string, method: string, args: unknown) =>
      (await (
        await fetch(`${host.url}/api/${service}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-flowbench-session': session },
          body: JSON.stringify(args),
        })
      ).json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
    const windowEvents = () => shell.windows[0]!.webContents.sent.map((s) => s.payload as HostEvent);

    // A flow made in the window reaches the browser's flow list, and a browser's edit the window's canvas.
    const created = (await shell.invoke(page, 'flows', 'create', { name: 'Made in the window' })) as {
      value: { flow: { id: string } };
    };
    const flowId = created.value.flow.id;
    await expect
      .poll(() => browser.events.some((e) => e.type === 'flows.changed' && e.flowIds.includes(flowId)))
      .toBe(true);
    const renamed = await overHttp('flows', 'applyChanges', {
      id: flowId,
      changes: { flow: { name: 'Renamed in the browser' } },
    });
    expect(renamed).toMatchObject({ ok: true });
    await expect
      .poll(() => windowEvents().some((e) => e.type === 'flows.changed' && e.flowIds.includes(flowId)))
      .toBe(true);

    // A run started in the window is shown live in the browser.
    desktop!.services.flows.create(greeterFlow('shared'));
    const run = (await shell.invoke(page, 'runs', 'start', { flowId: 'shared', inputs: { who: 'Ada' } })) as {
      value: { runId: string };
    };
    await expect
      .poll(() =>
        browser.events.some(
          (e) => e.type === 'run' && e.event.type === 'run.finished' && e.event.runId === run.value.runId,
        ),
      )
      .toBe(true);

    // The browser page is answered as serve's would be: it may not move the port it was loaded from.
    expect(await overHttp('host', 'info', {})).toMatchObject({ ok: true, value: { kind: 'serve' } });
    expect(await shell.invoke(page, 'host', 'info', {})).toMatchObject({ ok: true, value: { kind: 'electron' } });
    const refused = await overHttp('clients', 'setPort', { port: await freePort() });
    expect(refused).toMatchObject({ ok: false, error: { code: 'USAGE_ERROR' } });
    expect(refused.error?.message).toMatch(/Connect screen of the app's own window/);
    expect(desktop!.http.host.port).toBe(host.port);
    browser.close();
  });
});

/** The events an editor page hears over HTTP (server-sent events), gathered as they come. */
async function listenToEvents(url: string): Promise<{ events: HostEvent[]; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  const events: HostEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffered += value;
        const messages = buffered.split('\n\n');
        buffered = messages.pop() ?? '';
        for (const message of messages)
          if (message.startsWith('data: ')) events.push(JSON.parse(message.slice('data: '.length)) as HostEvent);
      }
    } catch {
      // Aborted by close().
    }
  })();
  return { events, close: () => controller.abort() };
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
