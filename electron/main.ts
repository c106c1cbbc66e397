import { app, BrowserWindow, ipcMain } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HostEvent } from '../core/api/contract';
import { ApiHost } from '../core/host/api-host';
import { endpointsFor } from '../core/host/client-config';
import { DEFAULT_PORT, httpToken } from '../core/host/http-host';
import { DATABASE_FILE_NAME } from '../core/services/paths';
import { openServices } from '../core/services/open-services';

// Wiring only: the window, its security settings, and the host API over IPC.
// Everything else lives in core/ and is shared with the CLI and `serve`.

/** A better-sqlite3 build for Electron's ABI, when packaging put one beside the app. */
function electronSqliteBinding(): string | undefined {
  const candidate = join(process.resourcesPath ?? '', 'better_sqlite3.node');
  return existsSync(candidate) ? candidate : undefined;
}

const binding = electronSqliteBinding();
const services = openServices(process.env.FLOWBENCH_DB || join(app.getPath('userData'), DATABASE_FILE_NAME), {
  seedExamples: !process.env.FLOWBENCH_DB,
  migrationsFolder: join(app.getAppPath(), 'resources', 'migrations'),
  ...(binding ? { nativeBinding: binding } : {}),
});
// The app does not serve HTTP yet (issue 18): clients get the stdio entry and serve's default port.
const api = new ApiHost(services, 'electron', () =>
  endpointsFor(services.database.path, DEFAULT_PORT, httpToken(services)),
);

ipcMain.handle('flowbench:invoke', (event, service: unknown, method: unknown, args: unknown) =>
  api.invoke(String(service), String(method), args, { clientId: `window-${event.sender.id}` }),
);
api.subscribe((hostEvent: HostEvent) => {
  for (const window of BrowserWindow.getAllWindows()) window.webContents.send('flowbench:event', hostEvent);
});

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Flowbench',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
}

void app.whenReady().then(() => {
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => services.close());
