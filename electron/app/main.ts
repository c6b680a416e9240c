// Electron main process: thin glue around electron/services. One instance; one hardened window
// loading the built renderer from studio-app://; the bridge on IPC; media on studio-media://;
// the local studio started with the app and stopped with it; a notification when a job ends.
import { app, BrowserWindow, dialog, Notification, safeStorage, shell, Menu } from 'electron';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { LocalStudio } from '../services/local-studio.js';
import { ProfileStore, envProfileFrom } from '../services/profiles.js';
import { createSecretStore } from '../services/secrets.js';
import { serverCommand } from '../services/server-command.js';
import { createStudio, type Studio } from '../services/studio.js';
import { registerBridge, sendEvent, trustedSender } from './ipc/main-bridge.js';
import { buildMenu } from './menu.js';
import { APP_ORIGIN, MEDIA_BASE, handleSchemes, registerSchemes } from './protocols.js';
import { hardenApp } from './security.js';
import { loadWindowState, trackWindowState } from './window-state.js';

// Tests (and careful users) can give the app a throwaway profile folder.
if (process.env.PRESENTER_STUDIO_USER_DATA) app.setPath('userData', process.env.PRESENTER_STUDIO_USER_DATA);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerSchemes();
  hardenApp();
  void main();
}

let win: BrowserWindow | null = null;

async function createWindow(dataDir: string): Promise<BrowserWindow> {
  const state = await loadWindowState(dataDir);
  const w = new BrowserWindow({
    ...(state.centered ? { width: state.bounds.width, height: state.bounds.height, center: true } : state.bounds),
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Presenter Studio',
    icon: join(app.getAppPath(), 'resources/icons/512x512.png'),
    webPreferences: {
      preload: join(app.getAppPath(), 'dist/electron/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  if (state.maximized) w.maximize();
  trackWindowState(w, dataDir);
  w.once('ready-to-show', () => w.show());
  await w.loadURL(`${APP_ORIGIN}/index.html`);
  return w;
}

function notifyJobEnd(event: StudioEvent, notified: Set<string>) {
  if (event.type !== 'job' || !Notification.isSupported()) return;
  const { job } = event;
  if ((job.status !== 'completed' && job.status !== 'failed') || notified.has(job.id)) return;
  notified.add(job.id);
  const excerpt = job.text.replace(/\s+/g, ' ').trim().slice(0, 80);
  const n = new Notification({
    title: job.status === 'completed' ? 'Video ready' : 'Render failed',
    body: job.status === 'completed' ? excerpt : `${excerpt}\n${job.error?.message ?? ''}`,
  });
  n.on('click', () => win?.show());
  n.show();
}

async function main() {
  await app.whenReady();
  const root = app.getAppPath();
  const dataDir = app.getPath('userData');
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const secrets = await createSecretStore({ dataDir, safeStorage });
  const env = envProfileFrom(process.env);
  const log = (line: string) => console.log(line);
  const local = new LocalStudio({
    // Packaged: Electron runs the compiled server as Node (electron-builder rebuilt
    // better-sqlite3 for Electron's ABI). From a checkout (`npm start`): the system Node runs
    // it, matching the ABI `npm install` built better-sqlite3 for.
    command: app.isPackaged
      ? serverCommand(root, { execPath: process.execPath, electron: true })
      : serverCommand(root, { execPath: process.env.npm_node_execpath ?? 'node' }),
    dataDir: join(dataDir, 'studio'),
    secrets,
    userId: 'desktop',
    log: (l) => log(`[studio] ${l}`),
  });
  const studio: Studio = createStudio({
    shell: 'electron',
    version,
    dataDir,
    resourcesDir: join(root, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets, env, editable: true, local: true }),
    env,
    localStudio: local,
    userId: 'desktop',
    mediaBase: MEDIA_BASE,
    chooseSavePath: async (name) => {
      const options = { defaultPath: join(app.getPath('downloads'), name) };
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
  });
  const notified = new Set<string>();
  studio.events.subscribe((e) => {
    for (const w of BrowserWindow.getAllWindows()) sendEvent(w.webContents, e);
    notifyJobEnd(e, notified);
  });
  void local.start();

  handleSchemes(join(root, 'dist/renderer'), studio);
  registerBridge(studio.handlers, trustedSender(APP_ORIGIN, (wc) => BrowserWindow.fromWebContents(wc) !== null));
  Menu.setApplicationMenu(buildMenu({ isDev: !app.isPackaged, openDataFolder: () => void shell.openPath(dataDir) }));
  studio.setLive(true);
  win = await createWindow(dataDir);

  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', async () => {
    if (BrowserWindow.getAllWindows().length === 0) win = await createWindow(dataDir);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let stopped = false;
  app.on('before-quit', (e) => {
    if (stopped) return;
    e.preventDefault();
    stopped = true;
    void Promise.allSettled([studio.close(), local.stop()]).then(() => app.quit());
  });
}
