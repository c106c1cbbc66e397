import type {
  App,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  IpcMain,
  MenuItemConstructorOptions,
  OpenDialogOptions,
  Rectangle,
  SafeStorage,
  WebContents,
} from 'electron';

/**
 * The part of Electron's API the desktop modules use, passed in rather than
 * imported: main.ts hands over the real one, and the tests in plain Node a
 * double (Electron's binary is not needed, nor `require('electron')`, which
 * throws outside it). Each type is a pick of Electron's own, so a double
 * cannot drift from the real signatures.
 */
export type DesktopWebContents = Pick<
  WebContents,
  'send' | 'on' | 'setWindowOpenHandler' | 'getURL' | 'isLoading' | 'once' | 'id'
>;

export type DesktopWindow = Pick<
  BrowserWindow,
  | 'getNormalBounds'
  | 'isMaximized'
  | 'isMinimized'
  | 'restore'
  | 'focus'
  | 'show'
  | 'maximize'
  | 'isDestroyed'
  | 'loadURL'
  | 'loadFile'
> & {
  on(event: 'close' | 'ready-to-show' | 'closed', listener: () => void): unknown;
  webContents: DesktopWebContents;
};

export interface DesktopShell {
  app: Pick<
    App,
    | 'requestSingleInstanceLock'
    | 'quit'
    | 'getPath'
    | 'getVersion'
    | 'getAppPath'
    | 'whenReady'
    | 'setAboutPanelOptions'
    | 'showAboutPanel'
  > & {
    on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
    on(event: 'open-file', listener: (event: { preventDefault(): void }, path: string) => void): unknown;
    on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'window-all-closed' | 'activate', listener: () => void): unknown;
  };
  createWindow(options: BrowserWindowConstructorOptions): DesktopWindow;
  windows(): DesktopWindow[];
  setMenu(template: MenuItemConstructorOptions[]): void;
  showOpenDialog(
    window: DesktopWindow,
    options: OpenDialogOptions,
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  openExternal(url: string): Promise<void>;
  /**
   * Asks whether to close or reload a page that holds typed text it could not
   * save (its beforeunload said so): Electron, unlike a browser, asks nothing
   * itself and would keep the window open without a word. True: leave.
   */
  confirmLeave(window: DesktopWindow): boolean;
  /** Every display's work area, to put a restored window where it can be seen. */
  workAreas(): Rectangle[];
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
  ipc: Pick<IpcMain, 'handle'>;
  /** Denies every permission a page asks for (camera, notifications, …): the editor needs none. */
  denyPermissions(): void;
  platform: NodeJS.Platform;
}
