// The few parts of Electron the app uses, as small interfaces. The entries (main.ts, preload.ts)
// hand in the real `electron` module; the tests hand in in-memory fakes, so every module of
// electron/app runs under vitest without an Electron binary. Type imports only: nothing here
// loads Electron.
import type { BrowserWindowConstructorOptions, CustomScheme, MenuItemConstructorOptions, OpenDialogOptions, OpenDialogReturnValue, Rectangle, SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import type { SafeStorageLike } from '../services/secrets.js';

export type { MenuItemConstructorOptions, Rectangle };

export interface PreventableEvent {
  preventDefault(): void;
}

export interface FrameLike {
  readonly url: string;
}

/** Why a renderer or child process went away (Electron's `RenderProcessGoneDetails` / `Details`). */
export interface ProcessGoneDetails {
  reason: string;
  exitCode: number;
  type?: string;
  name?: string;
  serviceName?: string;
}

export interface WebContentsLike {
  readonly mainFrame: FrameLike;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  getURL(): string;
  reload(): void;
  loadURL(url: string): Promise<void>;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'render-process-gone', listener: (event: unknown, details: ProcessGoneDetails) => void): unknown;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rectangle;
  loadURL(url: string): Promise<void>;
  on(event: 'closed' | 'close' | 'resize' | 'move' | 'maximize' | 'unmaximize' | 'unresponsive' | 'responsive', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
}

export interface BrowserWindowStatic {
  new (options: BrowserWindowConstructorOptions): WindowLike;
  getAllWindows(): WindowLike[];
  fromWebContents(contents: WebContentsLike): WindowLike | null;
}

export interface AppLike {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  releaseSingleInstanceLock(): void;
  quit(): void;
  exit(code?: number): void;
  whenReady(): Promise<void>;
  getAppPath(): string;
  getPath(name: 'userData' | 'downloads'): string;
  setPath(name: 'userData' | 'crashDumps', path: string): void;
  setAppUserModelId(id: string): void;
  on(event: 'second-instance' | 'activate' | 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
  on(event: 'child-process-gone', listener: (event: unknown, details: ProcessGoneDetails) => void): unknown;
}

export interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

export interface NotificationStatic {
  new (options: { title: string; body: string }): NotificationLike;
  isSupported(): boolean;
}

export interface DialogLike {
  /** Modal to `parent` when one is given. */
  showSaveDialog(options: SaveDialogOptions, parent: WindowLike | null): Promise<SaveDialogReturnValue>;
  showOpenDialog(options: OpenDialogOptions, parent: WindowLike | null): Promise<OpenDialogReturnValue>;
  showErrorBox(title: string, content: string): void;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
  /** Resolves to an error message, or '' on success. */
  openPath(path: string): Promise<string>;
}

export interface MenuStatic {
  buildFromTemplate(template: MenuItemConstructorOptions[]): object;
  setApplicationMenu(menu: object | null): void;
}

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: CustomScheme[]): void;
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

export interface SessionLike {
  setPermissionRequestHandler(handler: ((contents: WebContentsLike, permission: string, callback: (granted: boolean) => void) => void) | null): void;
  setPermissionCheckHandler(handler: ((contents: WebContentsLike | null, permission: string, requestingOrigin: string) => boolean) | null): void;
}

export interface ScreenLike {
  getAllDisplays(): { workArea: Rectangle }[];
}

/** What the main process's IPC handlers receive: who sent the call. */
export interface IpcInvokeEventLike {
  readonly sender: WebContentsLike;
  readonly senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcRendererLike {
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/** The preload's way from a dropped or chosen File to its path on disk ('' for a File made in the page). */
export interface WebUtilsLike {
  getPathForFile(file: File): string;
}

export interface CrashReporterLike {
  start(options: { uploadToServer: boolean; compress?: boolean }): void;
}

/** The main process's view of Electron. */
export interface ElectronMain {
  app: AppLike;
  BrowserWindow: BrowserWindowStatic;
  dialog: DialogLike;
  Notification: NotificationStatic;
  shell: ShellLike;
  Menu: MenuStatic;
  protocol: ProtocolLike;
  session: { readonly defaultSession: SessionLike };
  ipcMain: IpcMainLike;
  screen: ScreenLike;
  safeStorage: SafeStorageLike;
  crashReporter: CrashReporterLike;
}

/** The Node process around the main process (the tests give their own). */
export interface HostProcess {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Electron's binary: it runs the local studio in Node mode. */
  execPath: string;
  on(event: 'uncaughtException' | 'unhandledRejection' | 'warning', listener: (error: unknown) => void): unknown;
}
