import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';

// Wiring only: the window and its security settings. The host API over IPC is
// added with the editor; everything else lives in core/.
function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
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
