// The desktop app's main process, given Electron (main.ts hands in the real module, the tests
// in-memory fakes). One instance; one hardened window loading the built renderer from
// studio-app://; the bridge on IPC; media on studio-media://; the local studio started with the
// app and stopped with it; a notification when a job ends; everything worth knowing after the
// fact in <userData>/logs/main.log.
import { readPackageInfo } from '../services/package-info.js';
import { join } from 'node:path';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { excerptOf } from '../../shared/contract/index.js';
import { dialogFilters } from '../services/asset-files.js';
import { createAppLog, pruneCrashReports, studioLogEntry, type AppLog } from '../services/app-log.js';
import type { EventHub } from '../services/events.js';
import { LocalStudio } from '../services/local-studio.js';
import { ProfileStore, envProfileFrom } from '../services/profiles.js';
import { rendererDirs } from '../services/renderer-files.js';
import { createSecretStore } from '../services/secrets.js';
import { serverCommand } from '../services/server-command.js';
import { createStudio, type Studio } from '../services/studio.js';
import type { ElectronMain, HostProcess, NotificationLike, WindowLike } from './electron-api.js';
import { CRASH_PAGE_PATH } from './crash-page.js';
import { registerBridge, sendEvent, trustedSender } from './ipc/main-bridge.js';
import { menuTemplate } from './menu.js';
import { APP_ORIGIN, MEDIA_BASE, handleSchemes, registerSchemes } from './protocols.js';
import { externalLinkPrefixes, hardenApp, restrictPermissions } from './security.js';
import { loadWindowState, trackWindowState } from './window-state.js';

/** Windows groups notifications and taskbar entries by this id: the same as `appId` in electron-builder.yml. */
export const APP_USER_MODEL_ID = 'org.presenterstudio.app';
/** A second renderer crash within this time shows the crash page instead of reloading again. */
export const CRASH_REPEAT_MS = 10 * 60_000;
/** How long quitting waits for the studio to finish starting, then to stop, before it gives up. */
const STOP_TIMEOUT_MS = 15_000;

export interface DesktopOptions {
  /** Keychain service name (tests use a throwaway one). */
  secretService?: string;
  /** Clock for the renderer crash policy (tests). */
  now?: () => number;
  /** Each log line also goes here (the terminal of `npm start`). */
  echo?: (line: string) => void;
}

export interface DesktopApp {
  /** Settles when startup is done: true once the window is up, false when it failed (the app then exits with code 1). */
  ready: Promise<boolean>;
  log: AppLog;
  /** The window, or null while none is open. */
  window(): WindowLike | null;
  /** The studio's events (job updates, studio status), once started. */
  events(): EventHub | null;
}

const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
const bounded = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<void>((r) => setTimeout(r, ms).unref?.())]);

/** Starts the app; null when another instance already runs (this one then quits). */
export function startDesktopApp(electron: ElectronMain, host: HostProcess, options: DesktopOptions = {}): DesktopApp | null {
  const { app, BrowserWindow, dialog, Notification, shell, Menu, protocol, session, ipcMain, screen, safeStorage, crashReporter } = electron;
  const now = options.now ?? Date.now;

  // Tests (and careful users) can give the app a throwaway profile folder.
  if (host.env.PRESENTER_STUDIO_USER_DATA) app.setPath('userData', host.env.PRESENTER_STUDIO_USER_DATA);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const dataDir = app.getPath('userData');
  const log = createAppLog({ dir: join(dataDir, 'logs'), echo: options.echo });
  // Native crashes leave a minidump next to the log (never uploaded), as early as possible.
  const crashDir = join(log.dir, 'crashes');
  app.setPath('crashDumps', crashDir);
  crashReporter.start({ uploadToServer: false, compress: true });
  if (host.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  let root = '';
  let externalLinks: string[] = [];
  let local: LocalStudio | null = null;
  let localStarting: Promise<void> | null = null;
  let studio: Studio | null = null;
  let win: WindowLike | null = null;
  let opening: Promise<WindowLike> | null = null;
  let started = false;
  let quitting = false;
  let stopped = false;
  const notifications = new Set<NotificationLike>();
  /** Bridge calls still running: a window closing sends its last deletions as it goes (pagehide). */
  const bridgeCalls = new Set<Promise<unknown>>();
  const trackCall = (call: Promise<unknown>) => {
    bridgeCalls.add(call);
    const done = () => bridgeCalls.delete(call);
    call.then(done, done);
  };

  registerSchemes(protocol);
  hardenApp({ app, shell, externalLinks: () => externalLinks, log: (m) => log.warn(m) });

  // Everything the app reacts to is registered before the first await, so no event is missed
  // while the services start; each handler copes with "not started yet".
  let toldUser = false;
  host.on('uncaughtException', (e) => {
    log.error('uncaught exception', e);
    // Once per run: an error repeating in a loop must not bury the user in boxes.
    if (started && !toldUser) {
      toldUser = true;
      dialog.showErrorBox('Presenter Studio: unexpected error', log.redact(`${errorMessage(e)}\n\nDetails are in ${log.file}`));
    }
  });
  host.on('unhandledRejection', (e) => log.error('unhandled promise rejection', e));
  // Process warnings, such as a data file found corrupt and set aside (services/atomic-file.ts).
  host.on('warning', (w) => log.warn(errorMessage(w)));
  app.on('child-process-gone', (_e, d) => log.warn(`child process gone: ${d.type ?? 'process'}${d.name ? ` (${d.name})` : ''}: ${d.reason}, exit code ${d.exitCode}`));
  app.on('second-instance', () => {
    if (started) void showWindow();
  });
  app.on('activate', () => {
    // macOS: a click on the dock icon with no window open brings one back.
    if (started) void showWindow();
  });
  app.on('window-all-closed', () => {
    if (host.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (e) => {
    if (stopped) return;
    e.preventDefault();
    if (quitting) return;
    quitting = true;
    void shutdown().then(() => {
      stopped = true;
      app.quit();
    });
  });

  async function shutdown(): Promise<void> {
    await bounded(ready, STOP_TIMEOUT_MS);
    // Closing the last window quits (Linux, Windows): what it sent as it closed finishes first.
    await bounded(Promise.allSettled([...bridgeCalls]), STOP_TIMEOUT_MS);
    await stopServices();
    log.info('stopped');
  }

  async function stopServices(): Promise<void> {
    // A studio still starting would go on to spawn its server after stop(): let it finish first.
    if (localStarting) await bounded(localStarting, STOP_TIMEOUT_MS);
    await bounded(Promise.allSettled([studio?.close(), local?.stop()]), STOP_TIMEOUT_MS);
  }

  async function createWindow(): Promise<WindowLike> {
    const state = await loadWindowState(dataDir, screen);
    const w = new BrowserWindow({
      ...(state.centered ? { width: state.bounds.width, height: state.bounds.height, center: true } : state.bounds),
      minWidth: 800,
      minHeight: 600,
      show: false,
      title: 'Presenter Studio',
      icon: join(root, 'resources/icons/512x512.png'),
      webPreferences: {
        preload: join(root, 'dist/electron/preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: true,
      },
    });
    win = w;
    w.on('closed', () => {
      if (win === w) win = null;
    });
    if (state.maximized) w.maximize();
    trackWindowState(w, dataDir, log);
    w.once('ready-to-show', () => w.show());
    watchRenderer(w);
    w.on('unresponsive', () => log.warn('the window is not responding'));
    w.on('responsive', () => log.info('the window responds again'));
    await w.loadURL(`${APP_ORIGIN}/index.html`);
    return w;
  }

  /** A crashed renderer is reloaded once; crashing again soon after shows the crash page. */
  function watchRenderer(w: WindowLike) {
    let lastCrash = -Infinity;
    w.webContents.on('render-process-gone', (_e, details) => {
      log.error(`window renderer gone: ${details.reason}, exit code ${details.exitCode}`);
      if (details.reason === 'clean-exit' || w.isDestroyed()) return;
      const repeated = now() - lastCrash < CRASH_REPEAT_MS;
      lastCrash = now();
      if (!repeated) {
        log.info('reloading the window');
        w.webContents.reload();
      } else {
        log.info('the window crashed again: showing the crash page');
        void w.loadURL(`${APP_ORIGIN}${CRASH_PAGE_PATH}`).catch((e) => log.error('could not show the crash page', e));
      }
    });
  }

  /** The window, created again if it was closed (macOS keeps the app running without one). */
  function ensureWindow(): Promise<WindowLike> {
    if (win && !win.isDestroyed()) return Promise.resolve(win);
    opening ??= createWindow().finally(() => (opening = null));
    return opening;
  }

  async function showWindow(): Promise<void> {
    try {
      const w = await ensureWindow();
      if (w.isMinimized()) w.restore();
      w.show();
      w.focus();
    } catch (e) {
      log.error('could not open the window', e);
    }
  }

  function notifyJobEnd(event: StudioEvent, notified: Set<string>) {
    if (event.type !== 'job' || !Notification.isSupported()) return;
    const { job } = event;
    if ((job.status !== 'completed' && job.status !== 'failed') || notified.has(job.id)) return;
    notified.add(job.id);
    const excerpt = excerptOf(job.text, 80);
    const n = new Notification({
      title: job.status === 'completed' ? 'Video ready' : 'Render failed',
      body: job.status === 'completed' ? excerpt : `${excerpt}\n${job.error?.message ?? ''}`,
    });
    // Kept referenced until used, or the click would be lost to garbage collection.
    notifications.add(n);
    n.on('click', () => {
      notifications.delete(n);
      void showWindow();
    });
    n.on('close', () => notifications.delete(n));
    n.show();
  }

  async function start(): Promise<void> {
    await app.whenReady();
    root = app.getAppPath();
    const pkg = readPackageInfo(root);
    externalLinks = externalLinkPrefixes(pkg);
    log.info(`Presenter Studio ${pkg.version} starting (${host.platform}, ${app.isPackaged ? 'packaged' : 'from a checkout'}, data in ${dataDir})`);
    restrictPermissions(session.defaultSession);
    const dumps = pruneCrashReports(crashDir);
    if (dumps) log.info(`${dumps} crash report(s) from earlier runs in ${crashDir}`);
    const secrets = await createSecretStore({ dataDir, safeStorage, service: options.secretService });
    const env = envProfileFrom(host.env);
    if (env) log.addSecret(env.key);
    local = new LocalStudio({
      // The same command packaged and from a checkout: Electron's own Node runs the server.
      command: serverCommand(root, { execPath: host.execPath, electron: true }),
      dataDir: join(dataDir, 'studio'),
      secrets,
      userId: 'desktop',
      log: (line) => {
        const entry = studioLogEntry(line);
        if (entry) log[entry.level](entry.message);
      },
    });
    const s = createStudio({
      shell: 'electron',
      version: pkg.version,
      dataDir,
      resourcesDir: join(root, 'resources'),
      profiles: new ProfileStore({ dataDir, secrets, env, editable: true, local: true }),
      env,
      localStudio: local,
      userId: 'desktop',
      mediaBase: MEDIA_BASE,
      log,
      chooseSavePath: async (name) => {
        const opts = { defaultPath: join(app.getPath('downloads'), name) };
        const r = await dialog.showSaveDialog(opts, win && !win.isDestroyed() ? win : null);
        return r.canceled || !r.filePath ? null : r.filePath;
      },
      chooseFiles: async (kinds) => {
        const opts = { title: 'Add to the media library', properties: ['openFile' as const, 'multiSelections' as const], filters: dialogFilters(kinds) };
        const r = await dialog.showOpenDialog(opts, win && !win.isDestroyed() ? win : null);
        return r.canceled ? [] : r.filePaths;
      },
    });
    studio = s;
    const notified = new Set<string>();
    s.events.subscribe((e) => {
      for (const w of BrowserWindow.getAllWindows()) sendEvent(w.webContents, e);
      notifyJobEnd(e, notified);
    });
    localStarting = local.start();

    handleSchemes(protocol, rendererDirs(root), s);
    registerBridge(ipcMain, s.handlers, trustedSender(APP_ORIGIN, (wc) => BrowserWindow.fromWebContents(wc) !== null), trackCall);
    const logDir = log.dir;
    const openFolder = (path: string) => void shell.openPath(path).then((err) => err && log.warn(`could not open ${path}: ${err}`));
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(menuTemplate({ isDev: !app.isPackaged, mac: host.platform === 'darwin', openDataFolder: () => openFolder(dataDir), showLogs: () => openFolder(logDir) })),
    );
    s.setLive(true);
    await ensureWindow();
    started = true;
    log.info('window open');
  }

  /** Startup failed: say so, give the lock back (or every later launch would quietly exit), stop what started, exit 1. */
  async function fail(e: unknown): Promise<false> {
    log.error('startup failed', e);
    try {
      dialog.showErrorBox('Presenter Studio could not start', log.redact(`${errorMessage(e)}\n\nDetails are in ${log.file}`));
    } catch {
      // no dialog possible: the log has it
    }
    app.releaseSingleInstanceLock();
    await stopServices();
    stopped = true;
    app.exit(1);
    return false;
  }

  const ready: Promise<boolean> = start().then(() => true, fail);

  return {
    ready,
    log,
    window: () => (win && !win.isDestroyed() ? win : null),
    events: () => studio?.events ?? null,
  };
}
