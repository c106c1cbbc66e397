import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, Rectangle } from 'electron';
import type { DesktopShell, DesktopWebContents, DesktopWindow } from '../../electron/desktop/shell';

/**
 * A stand-in for the part of Electron the desktop modules use, recording what
 * they asked of it, so the main process's behaviour is tested in plain Node
 * (Electron's binary is not installed here). Only the OS is faked: the
 * database, the HTTP endpoint and the API behind IPC are the real ones.
 */
export class FakeContents extends EventEmitter {
  readonly id = 1;
  sent: { channel: string; payload: unknown }[] = [];
  loading = true;
  url = '';
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  getURL() {
    return this.url;
  }
  isLoading() {
    return this.loading;
  }
  /** What Electron does when the page has loaded. */
  finishLoad() {
    this.loading = false;
    this.emit('did-finish-load');
  }
  /** The page's beforeunload kept it open (Electron's will-prevent-unload); true when the app let it close anyway. */
  unloadPrevented(): boolean {
    let left = false;
    this.emit('will-prevent-unload', { preventDefault: () => (left = true) });
    return left;
  }
  /** A navigation attempt; true when the app let it happen. */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return !prevented;
  }
}

export class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents();
  bounds: Rectangle;
  maximized = false;
  minimized = false;
  focused = false;
  shown = false;
  destroyed = false;
  loaded: string | undefined;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width ?? 0, height: options.height ?? 0 };
  }
  getNormalBounds() {
    return this.bounds;
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return this.minimized;
  }
  restore() {
    this.minimized = false;
  }
  focus() {
    this.focused = true;
  }
  show() {
    this.shown = true;
  }
  maximize() {
    this.maximized = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
  loadFile(file: string) {
    this.loaded = file;
    this.webContents.url = `file://${file}`;
    return Promise.resolve();
  }
  /** The person closes the window. */
  close() {
    this.emit('close');
    this.destroyed = true;
    this.emit('closed');
  }
}

type Handler = (event: { senderFrame: { url: string } | null; sender: { id: number } }, ...args: unknown[]) => unknown;

export class FakeShell {
  readonly appEvents = new EventEmitter();
  readonly windows: FakeWindow[] = [];
  menu: MenuItemConstructorOptions[] = [];
  readonly handlers = new Map<string, Handler>();
  readonly opened: string[] = [];
  dialogAnswer: { canceled: boolean; filePaths: string[] } = { canceled: true, filePaths: [] };
  /** What the person answers when a page with unsaved text would close: true leaves. */
  leaveAnswer = false;
  leaveAsked = 0;
  quitCalled = false;
  permissionsDenied = false;
  encryption: 'os' | 'basic_text' | 'none' = 'os';
  /** What `app.whenReady()` waits for: a test can hold the app before it is ready. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly userData: string,
    readonly hasLock = true,
    private readonly areas: Rectangle[] = [{ x: 0, y: 0, width: 1920, height: 1080 }],
    readonly platform: NodeJS.Platform = 'linux',
  ) {}

  /** The menu item with this label, anywhere in the menu. */
  menuItem(label: string): MenuItemConstructorOptions {
    const find = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions | undefined => {
      for (const item of items) {
        if (item.label === label) return item;
        const inner = Array.isArray(item.submenu) ? find(item.submenu) : undefined;
        if (inner) return inner;
      }
      return undefined;
    };
    const found = find(this.menu);
    if (!found) throw new Error(`no menu item "${label}"`);
    return found;
  }

  click(label: string) {
    const click = this.menuItem(label).click as unknown as () => void;
    click();
  }

  /** Calls the IPC API as a page at `url` would. */
  invoke(url: string, ...args: unknown[]) {
    const handler = this.handlers.get('flowbench:invoke');
    if (!handler) throw new Error('the API is not served over IPC');
    return handler({ senderFrame: { url }, sender: { id: 1 } }, ...args);
  }

  get shell(): DesktopShell {
    const app = {
      requestSingleInstanceLock: () => this.hasLock,
      quit: () => {
        this.quitCalled = true;
      },
      getPath: () => this.userData,
      getVersion: () => '0.0.0-test',
      getAppPath: () => process.cwd(),
      whenReady: () => this.ready,
      setAboutPanelOptions: () => undefined,
      showAboutPanel: () => undefined,
      on: (event: string, listener: (...args: unknown[]) => void) => this.appEvents.on(event, listener),
    };
    const reversed = (text: string) => Buffer.from([...Buffer.from(text)].reverse());
    return {
      app: app as unknown as DesktopShell['app'],
      createWindow: (options) => {
        const window = new FakeWindow(options);
        this.windows.push(window);
        return window as unknown as DesktopWindow;
      },
      windows: () => this.windows.filter((w) => !w.destroyed) as unknown as DesktopWindow[],
      setMenu: (template) => {
        this.menu = template;
      },
      showOpenDialog: () => Promise.resolve(this.dialogAnswer),
      confirmLeave: () => {
        this.leaveAsked++;
        return this.leaveAnswer;
      },
      openExternal: (url) => {
        this.opened.push(url);
        return Promise.resolve();
      },
      workAreas: () => this.areas,
      safeStorage: {
        isEncryptionAvailable: () => this.encryption !== 'none',
        getSelectedStorageBackend: () => (this.encryption === 'basic_text' ? 'basic_text' : 'gnome_libsecret'),
        encryptString: (text: string) => reversed(text),
        decryptString: (data: Buffer) => Buffer.from([...data].reverse()).toString(),
      } as unknown as DesktopShell['safeStorage'],
      ipc: {
        handle: (channel: string, handler: Handler) => void this.handlers.set(channel, handler),
      } as unknown as DesktopShell['ipc'],
      denyPermissions: () => {
        this.permissionsDenied = true;
      },
      platform: this.platform,
    };
  }
}

export const asContents = (window: FakeWindow) => window.webContents as unknown as DesktopWebContents;
