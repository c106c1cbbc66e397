import { join, resolve } from 'node:path';
import type { AppCommand } from '../../core/api/app-commands';
import type { HostEvent } from '../../core/api/contract';
import { useEnvironmentProxy } from '../../core/services/network';
import { ApiHost } from '../../core/host/api-host';
import { watchDatabase } from '../../core/host/database-watcher';
import { endpointsFor } from '../../core/host/client-config';
import { httpToken } from '../../core/host/http-host';
import { keychainBackend } from '../../core/services/keychain-backend';
import { openServices, type Services } from '../../core/services/open-services';
import { FLOWBENCH_VERSION } from '../../core/services/version';
import { AppHttp } from './app-http';
import { FLOW_FILE_EXTENSIONS, flowFilesIn, importCommand } from './flow-files';
import { EVENT_CHANNEL, serveApiOverIpc } from './ipc';
import { appMenu } from './menu';
import { safeStorageBackend } from './safe-storage';
import { appPageMatcher, confineWindow } from './security';
import type { DesktopShell, DesktopWindow } from './shell';
import { initialBounds, keepWindowState, MIN_SIZE, readWindowState } from './window-state';

export interface DesktopOptions {
  /** FLOWBENCH_DB, else the CLI's default database (resolveDatabasePath): one database for both. */
  database: { path: string; isDefault: boolean };
  /** FLOWBENCH_PORT: the HTTP endpoint's port over the one chosen in the app. */
  port?: number;
  /** The page to load: the built renderer's index.html, or the dev server in development. */
  page: { file?: string; devUrl?: string };
  preload: string;
  migrationsFolder?: string;
  /** better-sqlite3 built for Electron's ABI (native-binding.ts). */
  nativeBinding?: string;
  /** This launch's command line, for the flow files it names. */
  argv: readonly string[];
  cwd: string;
  /** What runs the stdio entry written into clients' configs: this binary as Node. */
  node: { command: string; env?: Record<string, string> };
}

export interface Desktop {
  services: Services;
  api: ApiHost;
  http: AppHttp;
  window(): DesktopWindow | undefined;
}

/**
 * The desktop app: one instance, one window that remembers where it was, the
 * menu, flow files opened however they come, the API over IPC, and the MCP
 * endpoint. Undefined when another instance runs (it got this launch's files).
 */
export async function startDesktop(shell: DesktopShell, options: DesktopOptions): Promise<Desktop | undefined> {
  if (!shell.app.requestSingleInstanceLock()) {
    shell.app.quit();
    return undefined;
  }
  let window: DesktopWindow | undefined;
  /** Set once the first window opened: windows cannot be made before the app is ready. */
  let started = false;
  // Commands wait until the page can take them (files named at launch arrive before it loads).
  let pending: AppCommand[] = flowFilesIn(options.argv, options.cwd).map(importCommand);
  const isReady = (w: DesktopWindow | undefined): w is DesktopWindow =>
    w !== undefined && !w.isDestroyed() && !w.webContents.isLoading();
  const send = (command: AppCommand) => {
    if (isReady(window)) window.webContents.send(EVENT_CHANNEL, { type: 'app.command', command } satisfies HostEvent);
    else pending.push(command);
  };
  const flush = () => {
    const queued = pending;
    pending = [];
    for (const command of queued) send(command);
  };
  // A file given to a second launch, or opened from the Finder (macOS), comes here.
  shell.app.on('second-instance', (_event, argv, workingDirectory) => {
    // Before the first window opens (a second launch during start-up), its files just wait for it.
    const shown = window && !window.isDestroyed() ? window : started ? openWindow() : undefined;
    if (shown?.isMinimized()) shown.restore();
    shown?.focus();
    for (const file of flowFilesIn(argv, workingDirectory)) send(importCommand(file));
  });
  shell.app.on('open-file', (event, path) => {
    event.preventDefault();
    send(importCommand(path));
  });

  // Both before anything is served: the main process's requests (models, HTTP request nodes) go
  // through the proxy the environment names, as the CLI's do.
  await Promise.all([shell.app.whenReady(), useEnvironmentProxy()]);
  const databasePath = options.database.path;
  const services = openServices(databasePath, {
    seedExamples: options.database.isDefault,
    backgroundWrites: true,
    secretBackends: [safeStorageBackend(shell.safeStorage, shell.platform), keychainBackend()],
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  // One API host for the windows (IPC) and the browser pages the app serves (HTTP): an edit or a
  // run in one reaches the others, as between two tabs of `serve`.
  const api = new ApiHost(
    services,
    'electron',
    () => ({
      ...endpointsFor(resolve(databasePath), http.host.port, httpToken(services), options.node),
      serving: { running: true, ...(http.note ? { note: http.note } : {}) },
    }),
    (port) => http.move(port),
  );
  const http = await AppHttp.start(services, api, options.port);
  const isAppPage = appPageMatcher(options.page);
  serveApiOverIpc(shell, api, isAppPage);
  api.subscribe((event: HostEvent) => {
    for (const w of shell.windows()) if (!w.isDestroyed()) w.webContents.send(EVENT_CHANNEL, event);
  });
  // Flows edited and runs stored by other processes (the CLI, an MCP client's `flowbench mcp`) reach the windows.
  const stopWatching = watchDatabase(services, api);
  shell.denyPermissions();
  shell.app.setAboutPanelOptions({
    applicationName: 'Flowbench',
    applicationVersion: FLOWBENCH_VERSION,
    credits: 'Design, run and publish LLM flows locally; saved flows become MCP tools.',
  });
  shell.setMenu(
    appMenu(shell.platform, {
      send: (name) => send({ name }),
      showAbout: () => shell.app.showAboutPanel(),
      openFlowFile: () => {
        if (!window) return;
        void shell
          .showOpenDialog(window, {
            title: 'Open a flow file',
            properties: ['openFile', 'multiSelections'],
            filters: [{ name: 'Flow files', extensions: [...FLOW_FILE_EXTENSIONS] }],
          })
          .then(({ canceled, filePaths }) => {
            if (!canceled) for (const file of filePaths) send(importCommand(file));
          });
      },
    }),
  );

  function openWindow(): DesktopWindow {
    const stateFile = join(shell.app.getPath('userData'), 'window-state.json');
    const { maximized, ...bounds } = initialBounds(readWindowState(stateFile), shell.workAreas());
    const created = shell.createWindow({
      ...bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      title: 'Flowbench',
      // Shown once painted, so it never flashes white before the first screen.
      show: false,
      webPreferences: {
        preload: options.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        webviewTag: false,
      },
    });
    if (maximized) created.maximize();
    keepWindowState(created, stateFile);
    confineWindow(created.webContents, shell, isAppPage);
    created.on('ready-to-show', () => created.show());
    created.webContents.on('did-finish-load', flush);
    created.webContents.on('will-prevent-unload', (event) => {
      if (shell.confirmLeave(created)) event.preventDefault();
    });
    created.on('closed', () => {
      if (window === created) window = undefined;
    });
    if (options.page.devUrl) void created.loadURL(options.page.devUrl);
    else if (options.page.file) void created.loadFile(options.page.file);
    window = created;
    return created;
  }

  openWindow();
  started = true;
  shell.app.on('activate', () => {
    if (!window) openWindow();
  });
  shell.app.on('window-all-closed', () => {
    if (shell.platform !== 'darwin') shell.app.quit();
  });
  // Electron ends the process once this returns unless told to wait: it waits for the runs going on to
  // end cancelled, saying why, and be stored (see RunService.stop) before the database closes, then quits.
  let closing: Promise<void> | undefined;
  let isClosed = false;
  shell.app.on('will-quit', (event) => {
    if (isClosed) return;
    event.preventDefault();
    closing ??= (async () => {
      try {
        stopWatching();
        // The runs first, while MCP clients waiting on a call can still be told why (as serve does).
        await services.runner.stop('the Flowbench app was closed while the run was going');
        await http.close().catch(() => undefined);
        services.close();
      } catch (error) {
        process.stderr.write(`flowbench: closing: ${(error as Error).message}\n`);
      } finally {
        // Whatever failed above, the app still quits.
        isClosed = true;
        shell.app.quit();
      }
    })();
  });
  return { services, api, http, window: () => window };
}
