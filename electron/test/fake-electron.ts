// In-memory stand-ins for the parts of Electron the app uses (electron/app/electron-api.ts):
// Electron's binary cannot run on the build machine, everything around it is real. They behave
// as Electron does where the app depends on it: a destroyed window throws "Object has been
// destroyed", the last window closing emits window-all-closed, loadURL goes through the
// registered protocol handler and fails like Chromium on a non-2xx answer, IPC messages are
// structured-cloned, and the single-instance lock is held per lock registry (= per machine).
import type { BrowserWindowConstructorOptions, CustomScheme, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type {
  AppLike, BrowserWindowStatic, DialogLike, ElectronMain, FrameLike, HostProcess, IpcInvokeEventLike, IpcMainLike, IpcRendererLike,
  MenuItemConstructorOptions, MenuStatic, NotificationLike, NotificationStatic, PreventableEvent, ProtocolLike, Rectangle, SessionLike, ShellLike, WebContentsLike, WindowLike,
} from '../app/electron-api.js';

type Listener = (...args: never[]) => unknown;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const once = ((...args: never[]) => {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== once));
      return listener(...args);
    }) as Listener;
    return this.on(event, once);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) (l as (...a: unknown[]) => unknown)(...args);
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
  events(): string[] {
    return [...this.listeners.keys()].filter((e) => this.listenerCount(e) > 0);
  }
}

export class Preventable implements PreventableEvent {
  prevented = false;
  preventDefault() {
    this.prevented = true;
  }
}

const destroyedError = () => new TypeError('Object has been destroyed');

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly mainFrame: { url: string } & FrameLike;
  destroyed = false;
  reloads = 0;
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  /** What the renderer side listens to (ipcRenderer.on), by channel. */
  readonly rendererListeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  constructor(private readonly electron: FakeElectron) {
    super();
    this.mainFrame = { url: '' };
  }
  private alive() {
    if (this.destroyed) throw destroyedError();
  }
  send(channel: string, ...args: unknown[]): void {
    this.alive();
    for (const l of this.rendererListeners.get(channel) ?? []) l({}, ...args.map((a) => structuredClone(a)));
  }
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    this.alive();
    return this.mainFrame.url;
  }
  reload() {
    this.alive();
    this.reloads++;
  }
  async loadURL(url: string): Promise<void> {
    this.alive();
    const res = await this.electron.fetch(url);
    if (!res.ok) throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
    (this.mainFrame as { url: string }).url = url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.windowOpenHandler = handler;
  }
  /** The renderer's process died (Electron's `render-process-gone`). */
  crash(reason = 'crashed') {
    this.emit('render-process-gone', {}, { reason, exitCode: 139 });
  }
  /** A navigation the page starts; true when the app let it happen. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    const e = new Preventable();
    this.emit(event, e, url);
    return !e.prevented;
  }
}

export type WindowOptions = BrowserWindowConstructorOptions;

export class FakeWindow extends Emitter implements WindowLike {
  readonly webContents: FakeWebContents;
  destroyed = false;
  shown = false;
  focused = false;
  minimized = false;
  maximized = false;
  bounds: Rectangle;
  constructor(private readonly electron: FakeElectron, readonly options: WindowOptions) {
    super();
    this.webContents = new FakeWebContents(electron);
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    electron.windows.push(this);
    electron.app.emit('web-contents-created', {}, this.webContents);
  }
  private alive() {
    if (this.destroyed) throw destroyedError();
  }
  show() {
    this.alive();
    this.shown = true;
    this.minimized = false;
  }
  focus() {
    this.alive();
    this.focused = true;
  }
  restore() {
    this.alive();
    this.minimized = false;
  }
  maximize() {
    this.alive();
    this.maximized = true;
  }
  isMinimized() {
    this.alive();
    return this.minimized;
  }
  isMaximized() {
    this.alive();
    return this.maximized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    this.alive();
    return { ...this.bounds };
  }
  async loadURL(url: string) {
    this.alive();
    await this.webContents.loadURL(url);
    this.emit('ready-to-show');
  }
  /** The user moves the window. */
  moveTo(bounds: Rectangle) {
    this.bounds = { ...bounds };
    this.emit('move');
  }
  /** The user closes the window (or the app closes it while quitting). */
  close() {
    if (this.destroyed) return;
    this.emit('close');
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.electron.windows.splice(this.electron.windows.indexOf(this), 1);
    this.emit('closed');
    if (this.electron.windows.length === 0 && !this.electron.app.quitting) this.electron.app.emit('window-all-closed');
  }
}

/** Which user-data folders have a running instance (Electron's lock is per machine and folder). */
export class LockRegistry {
  readonly held = new Set<string>();
}

export class FakeApp extends Emitter implements AppLike {
  isPackaged = false;
  quitting = false;
  quitCalls = 0;
  exitCode: number | null = null;
  appUserModelId: string | null = null;
  readonly paths: Record<string, string>;
  private holdsLock = false;
  private readonly exited: Promise<number>;
  private resolveExit!: (code: number) => void;
  private readonly ended: Promise<'quit' | number>;
  private resolveEnd!: (how: 'quit' | number) => void;
  constructor(
    private readonly locks: LockRegistry,
    paths: { appPath: string; userData: string; downloads: string },
    readonly ready: Promise<void>,
  ) {
    super();
    this.paths = { ...paths };
    this.exited = new Promise((r) => (this.resolveExit = r));
    this.ended = new Promise((r) => (this.resolveEnd = r));
  }
  requestSingleInstanceLock() {
    const key = this.paths.userData!;
    if (this.locks.held.has(key)) return false;
    this.locks.held.add(key);
    this.holdsLock = true;
    return true;
  }
  releaseSingleInstanceLock() {
    if (this.holdsLock) this.locks.held.delete(this.paths.userData!);
    this.holdsLock = false;
  }
  /** Like Electron: before-quit may be prevented; otherwise the windows close and the process ends (the lock with it). */
  quit() {
    this.quitCalls++;
    const e = new Preventable();
    this.emit('before-quit', e);
    if (e.prevented) return;
    this.quitting = true;
    for (const w of [...this.windowsOf()]) w.close();
    this.releaseSingleInstanceLock();
    this.resolveEnd('quit');
  }
  exit(code = 0) {
    this.exitCode = code;
    this.releaseSingleInstanceLock();
    this.resolveExit(code);
    this.resolveEnd(code);
  }
  windowsOf: () => FakeWindow[] = () => [];
  whenReady() {
    return this.ready;
  }
  getAppPath() {
    return this.paths.appPath!;
  }
  getPath(name: 'userData' | 'downloads') {
    return this.paths[name]!;
  }
  setPath(name: 'userData' | 'crashDumps', path: string) {
    this.paths[name] = path;
  }
  setAppUserModelId(id: string) {
    this.appUserModelId = id;
  }
  /** Resolves with the exit code once app.exit() is called. */
  whenExited() {
    return this.exited;
  }
  /** Resolves once the process would end: quit completed, or exit(code). */
  whenEnded() {
    return this.ended;
  }
}

export class FakeNotification extends Emitter implements NotificationLike {
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    this.shown = true;
  }
  click() {
    this.emit('click');
  }
}

/** The renderer's half of an in-memory IPC pair: calls reach the handlers ipcMain registered. */
export class FakeIpc implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  invokes = 0;
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  /** ipcRenderer as the preload of `contents` sees it; `frame` sends from another frame (an iframe). */
  rendererFor(contents: FakeWebContents, frame?: FrameLike): IpcRendererLike {
    return {
      on: (channel, listener) => {
        contents.rendererListeners.set(channel, [...(contents.rendererListeners.get(channel) ?? []), listener]);
        return undefined;
      },
      invoke: async (channel, ...args) => {
        this.invokes++;
        const handler = this.handlers.get(channel);
        if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
        const result = await handler({ sender: contents, senderFrame: frame ?? contents.mainFrame }, ...args.map((a) => structuredClone(a)));
        return structuredClone(result);
      },
    };
  }
}

export class FakeElectron implements ElectronMain {
  readonly windows: FakeWindow[] = [];
  readonly app: FakeApp;
  readonly errorBoxes: { title: string; content: string }[] = [];
  readonly saveDialogs: SaveDialogOptions[] = [];
  readonly openDialogs: OpenDialogOptions[] = [];
  /** Files "dropped" from the desktop: webUtils gives their paths; any other File has none. */
  readonly droppedFiles = new WeakMap<File, string>();
  readonly webUtils = { getPathForFile: (file: File): string => this.droppedFiles.get(file) ?? '' };
  /** The files the next open dialogs answer with (none: canceled). */
  openDialogAnswer: string[] = [];
  readonly notifications: FakeNotification[] = [];
  readonly opened: { external: string[]; paths: string[] } = { external: [], paths: [] };
  readonly schemes: CustomScheme[] = [];
  readonly protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  menu: MenuItemConstructorOptions[] | null = null;
  permissionRequest: Parameters<SessionLike['setPermissionRequestHandler']>[0] = null;
  permissionCheck: Parameters<SessionLike['setPermissionCheckHandler']>[0] = null;
  readonly ipcMain = new FakeIpc();
  readonly BrowserWindow: BrowserWindowStatic;
  readonly Notification: NotificationStatic;
  readonly dialog: DialogLike;
  readonly shell: ShellLike;
  readonly Menu: MenuStatic;
  readonly protocol: ProtocolLike;
  readonly session: { defaultSession: SessionLike };
  readonly screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
  readonly crashReports: { uploadToServer: boolean; compress?: boolean }[] = [];
  readonly crashReporter = { start: (options: { uploadToServer: boolean; compress?: boolean }) => void this.crashReports.push(options) };
  readonly safeStorage = { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' };

  constructor(opts: { locks: LockRegistry; appPath: string; userData: string; downloads?: string; ready?: Promise<void> }) {
    this.app = new FakeApp(opts.locks, { appPath: opts.appPath, userData: opts.userData, downloads: opts.downloads ?? opts.userData }, opts.ready ?? Promise.resolve());
    this.app.windowsOf = () => this.windows;
    this.BrowserWindow = windowClass(this);
    this.Notification = notificationClass(this);
    this.dialog = {
      showErrorBox: (title, content) => void this.errorBoxes.push({ title, content }),
      showSaveDialog: async (options) => (this.saveDialogs.push(options), { canceled: true, filePath: '' }),
      showOpenDialog: async (options) => (this.openDialogs.push(options), { canceled: this.openDialogAnswer.length === 0, filePaths: this.openDialogAnswer }),
    };
    this.shell = {
      openExternal: async (url) => void this.opened.external.push(url),
      openPath: async (path) => (this.opened.paths.push(path), ''),
    };
    this.Menu = {
      buildFromTemplate: (template) => ({ template }),
      setApplicationMenu: (menu) => void (this.menu = (menu as { template: MenuItemConstructorOptions[] } | null)?.template ?? null),
    };
    this.protocol = {
      registerSchemesAsPrivileged: (schemes) => void this.schemes.push(...schemes),
      handle: (scheme, handler) => void this.protocolHandlers.set(scheme, handler),
    };
    this.session = {
      defaultSession: {
        setPermissionRequestHandler: (h) => void (this.permissionRequest = h),
        setPermissionCheckHandler: (h) => void (this.permissionCheck = h),
      },
    };
  }

  /** A request to an app scheme, answered by the handler the app registered (as Chromium would ask it). */
  async fetch(url: string, init?: RequestInit): Promise<Response> {
    const handler = this.protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) return new Response('no handler for this scheme', { status: 404 });
    return handler(new Request(url, init));
  }

  /** The menu item at a path of labels or roles, e.g. ['help', 'Show Logs']. */
  menuItem(...path: string[]): MenuItemConstructorOptions | undefined {
    let items = this.menu ?? [];
    let found: MenuItemConstructorOptions | undefined;
    for (const name of path) {
      found = items.find((i) => i.label === name || i.role === name);
      items = (found?.submenu as MenuItemConstructorOptions[] | undefined) ?? [];
    }
    return found;
  }

  get window(): FakeWindow | null {
    return this.windows[0] ?? null;
  }
}

function windowClass(electron: FakeElectron): BrowserWindowStatic {
  return class extends FakeWindow {
    constructor(options: WindowOptions) {
      super(electron, options);
    }
    static getAllWindows() {
      return [...electron.windows];
    }
    static fromWebContents(contents: WebContentsLike) {
      return electron.windows.find((w) => w.webContents === contents) ?? null;
    }
  };
}

function notificationClass(electron: FakeElectron): NotificationStatic {
  return class extends FakeNotification {
    constructor(options: { title: string; body: string }) {
      super(options);
      electron.notifications.push(this);
    }
    static isSupported() {
      return true;
    }
  };
}

/** A Node process as the app sees it; errors can be raised into its handlers. */
export class FakeHost extends Emitter implements HostProcess {
  constructor(
    readonly platform: NodeJS.Platform,
    readonly env: NodeJS.ProcessEnv,
    readonly execPath = process.execPath,
  ) {
    super();
  }
}
