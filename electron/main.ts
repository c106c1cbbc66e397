import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, screen, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { envPort } from './desktop/app-http';
import { startDesktop } from './desktop/desktop';
import { resolveDatabasePath } from '../core/services/paths';
import type { DesktopShell } from './desktop/shell';

// Wiring only: Electron's API handed to the desktop modules (electron/desktop/),
// which plain-Node tests drive with a double. Everything else lives in core/.

/**
 * better-sqlite3 for Electron's ABI. A packaged app carries it in place of
 * Node's (electron-builder rebuilds native modules); a checkout has it in
 * out/native/ (scripts/electron-native.mjs, run by `npm ci` where Electron's
 * binary downloaded, else by `npm start`).
 */
function electronSqliteBinding(): string | undefined {
  if (app.isPackaged) return undefined;
  const built = join(app.getAppPath(), 'out', 'native', 'better_sqlite3-electron.node');
  return existsSync(built) ? built : undefined;
}

const electronShell: DesktopShell = {
  app,
  createWindow: (options) => new BrowserWindow(options),
  windows: () => BrowserWindow.getAllWindows(),
  setMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
  showOpenDialog: (window, options) => dialog.showOpenDialog(window as BrowserWindow, options),
  openExternal: (url) => shell.openExternal(url),
  confirmLeave: (window) =>
    dialog.showMessageBoxSync(window as BrowserWindow, {
      type: 'question',
      buttons: ['Leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      message: 'Leave with text that was not saved?',
      detail:
        'A field holds text Flowbench could not save yet (JSON that does not parse, an output being written to pin).',
    }) === 0,
  workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
  safeStorage,
  ipc: ipcMain,
  denyPermissions: () => {
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
  },
  platform: process.platform,
};

const nativeBinding = electronSqliteBinding();
const port = envPort(process.env);
// The name the user data folder is called by (window state), as the CLI's default database folder is.
app.setName('Flowbench');
void startDesktop(electronShell, {
  database: resolveDatabasePath(undefined),
  ...(port !== undefined ? { port } : {}),
  page: process.env.ELECTRON_RENDERER_URL
    ? { devUrl: process.env.ELECTRON_RENDERER_URL }
    : { file: join(import.meta.dirname, '../renderer/index.html') },
  preload: join(import.meta.dirname, '../preload/index.cjs'),
  migrationsFolder: join(app.getAppPath(), 'resources', 'migrations'),
  ...(nativeBinding ? { nativeBinding } : {}),
  argv: process.argv,
  cwd: process.cwd(),
  // Clients start the stdio entry with this binary run as Node: no window, nothing else to install.
  node: {
    command: process.execPath,
    env: { ELECTRON_RUN_AS_NODE: '1', ...(nativeBinding ? { FLOWBENCH_SQLITE_BINDING: nativeBinding } : {}) },
  },
}).catch((error: unknown) => {
  // A database a newer Flowbench wrote, a foreign file: said in a box, not a silent exit.
  dialog.showErrorBox('Flowbench could not start', error instanceof Error ? error.message : String(error));
  app.quit();
});
