// The desktop main process (electron/app/desktop-app.ts) driven without Electron: in-memory
// fakes stand in for Electron's modules (fake-electron.ts), everything else is real — the
// services, the local studio as a child process, the keychain, the log file, the protocol
// handlers, the IPC bridge and a render API on a socket for the environment profile.
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudioApi, StudioEvent } from '../../shared/bridge/index.js';
import type { Job } from '../../shared/contract/index.js';
import { SCENE_FONTS } from '../../shared/scene/fonts.js';
import { APP_USER_MODEL_ID, CRASH_REPEAT_MS, startDesktopApp, type DesktopApp } from '../app/desktop-app.js';
import { createStudioApi } from '../app/ipc/renderer-bridge.js';
import { FakeElectron, FakeHost, LockRegistry, type FakeWindow } from './fake-electron.js';
import { ROOT, tempDir, waitFor } from './helpers.js';

const SavedBounds = z.object({ bounds: z.object({ x: z.number() }) });

const HOMEPAGE = 'https://presenter.example/docs';
const SECRET_SERVICE = `Presenter Studio desktop test ${process.pid}`;
const PACKAGE_MARKER = 'package-json-must-not-be-served';

/** An app folder like a checkout: package.json, the built renderer (optional), the rest linked to the project. */
function appRoot(opts: { renderer: boolean }): string {
  const root = tempDir('ps-desktop-root-');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'presenter-studio', version: '9.8.7', type: 'module', homepage: HOMEPAGE, description: PACKAGE_MARKER }));
  for (const dir of ['server', 'shared', 'resources', 'node_modules', 'tsconfig.json']) symlinkSync(join(ROOT, dir), join(root, dir));
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist/secret.txt'), PACKAGE_MARKER);
  if (opts.renderer) {
    mkdirSync(join(root, 'dist/renderer/assets'), { recursive: true });
    writeFileSync(join(root, 'dist/renderer/index.html'), '<!doctype html><title>Presenter Studio</title><script type="module" src="./assets/app.js"></script>');
    writeFileSync(join(root, 'dist/renderer/assets/app.js'), 'console.log("app")');
  }
  return root;
}

/** Pids of processes whose command line mentions `text` (Linux /proc). */
function processesWith(text: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const logText = (userData: string) =>
  readdirSync(join(userData, 'logs'))
    .filter((f) => f.startsWith('main.log'))
    .map((f) => readFileSync(join(userData, 'logs', f), 'utf8'))
    .join('');

const never = new Promise<void>(() => undefined);

function launch(opts: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv; ready?: Promise<void>; renderer?: boolean; locks?: LockRegistry; userData?: string; now?: () => number } = {}) {
  const root = appRoot({ renderer: opts.renderer ?? true });
  const userData = opts.userData ?? tempDir('ps-desktop-user-');
  const electron = new FakeElectron({ locks: opts.locks ?? new LockRegistry(), appPath: root, userData, downloads: tempDir('ps-desktop-dl-'), ready: opts.ready });
  const host = new FakeHost(opts.platform ?? 'linux', { ...opts.env });
  const desktop = startDesktopApp(electron, host, { secretService: SECRET_SERVICE, now: opts.now });
  return { root, userData, electron, host, desktop };
}

describe('startup', () => {
  it('registers every lifecycle and error handler before its first await', () => {
    const { electron, host, desktop } = launch({ ready: never });
    expect(desktop).not.toBeNull();
    // whenReady has not resolved: only what ran synchronously is in place.
    expect(electron.app.events()).toEqual(expect.arrayContaining(['second-instance', 'activate', 'window-all-closed', 'before-quit', 'child-process-gone', 'web-contents-created']));
    expect(host.events()).toEqual(expect.arrayContaining(['uncaughtException', 'unhandledRejection']));
    expect(electron.schemes.map((s) => s.scheme)).toEqual(['studio-app', 'studio-media']);
    // The page's font and PDF loads from the media scheme are CORS-mode requests from another origin.
    expect(electron.schemes.find((s) => s.scheme === 'studio-media')!.privileges).toMatchObject({ corsEnabled: true, secure: true, standard: true });
    expect(electron.schemes.find((s) => s.scheme === 'studio-app')!.privileges!.corsEnabled).toBeUndefined();
    expect(electron.windows).toHaveLength(0);
    // Native crashes are kept as minidumps next to the log, never uploaded.
    expect(electron.crashReports).toEqual([{ uploadToServer: false, compress: true }]);
    expect(electron.app.paths.crashDumps).toBe(join(electron.app.paths.userData!, 'logs', 'crashes'));
  });

  it('sets the AppUserModelId on Windows only, the same id as the installer (appId)', () => {
    const appId = /^appId:\s*(\S+)\s*$/m.exec(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'))?.[1];
    expect(APP_USER_MODEL_ID).toBe(appId);
    expect(launch({ ready: never, platform: 'win32' }).electron.app.appUserModelId).toBe(APP_USER_MODEL_ID);
    expect(launch({ ready: never, platform: 'linux' }).electron.app.appUserModelId).toBeNull();
  });

  it('closing the last window quits on Windows and Linux, not on macOS', () => {
    for (const [platform, quits] of [['linux', 1], ['win32', 1], ['darwin', 0]] as const) {
      const { electron } = launch({ ready: never, platform });
      electron.app.emit('window-all-closed');
      expect(electron.app.quitCalls, platform).toBe(quits);
    }
  });

  it('a second instance hands over to the first and quits', () => {
    const locks = new LockRegistry();
    const userData = tempDir('ps-desktop-user-');
    const first = launch({ ready: never, locks, userData });
    const second = launch({ ready: never, locks, userData });
    expect(first.desktop).not.toBeNull();
    expect(second.desktop).toBeNull();
    expect(second.electron.app.quitCalls).toBe(1);
  });

  it('a startup error shows an error box, stops the studio it started, gives the lock back and exits with code 1', async () => {
    const locks = new LockRegistry();
    const userData = tempDir('ps-desktop-user-');
    // No built renderer (`npm start` before `npm run build`): the window cannot load.
    const { electron, desktop } = launch({ renderer: false, locks, userData });
    expect(await desktop!.ready).toBe(false);
    expect(await electron.app.whenExited()).toBe(1);
    expect(electron.errorBoxes).toHaveLength(1);
    expect(electron.errorBoxes[0]!.title).toBe('Presenter Studio could not start');
    expect(electron.errorBoxes[0]!.content).toContain('ERR_FILE_NOT_FOUND');
    expect(electron.errorBoxes[0]!.content).toContain(join(userData, 'logs', 'main.log'));
    expect(logText(userData)).toMatch(/ERROR startup failed: Error: ERR_FILE_NOT_FOUND/);
    // The local studio was on its way up when the window failed: nothing of it is left running.
    expect(processesWith(join(userData, 'studio'))).toEqual([]);
    // The next launch is not turned away by a lock the failed one kept.
    const next = launch({ ready: never, locks, userData });
    expect(next.desktop).not.toBeNull();
  });
});

describe('closing the last window (Linux) as it sends a deletion', () => {
  it('the app quits only once the render API has answered the DELETE', async () => {
    // The environment profile's render API, slow to answer a DELETE.
    const seen: string[] = [];
    const api = createServer((req, res) => {
      if (req.url === '/api/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","version":"1.0.0"}');
      if (req.method === 'DELETE' && req.url === '/api/jobs/job-9') {
        seen.push('DELETE received');
        return void setTimeout(() => {
          seen.push('DELETE answered');
          res.writeHead(204).end();
        }, 1500);
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no"}}');
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const port = (api.address() as { port: number }).port;
      const app = launch({ platform: 'linux', env: { RENDER_API_BASE_URL: `http://127.0.0.1:${port}`, RENDER_API_KEY: `pk_live_${'D'.repeat(24)}` } });
      expect(await app.desktop!.ready).toBe(true);
      const win = app.electron.window as FakeWindow;
      // The page's pagehide handler sends the deletion, then the window is gone.
      const sent = createStudioApi(app.electron.ipcMain.rendererFor(win.webContents), app.electron.webUtils).call('jobs.delete', { id: 'job-9' });
      await waitFor(() => seen.includes('DELETE received'), 'the DELETE at the render API');
      win.close();
      expect(await app.electron.app.whenEnded()).toBe('quit');
      seen.push('app ended');
      expect(seen).toEqual(['DELETE received', 'DELETE answered', 'app ended']);
      await expect(sent).resolves.toEqual({ ok: true });
    } finally {
      await new Promise((r) => api.close(r));
    }
  }, 60_000);
});

describe('a running app (macOS: it stays open without a window)', () => {
  let clock = 1_000_000;
  let app: ReturnType<typeof launch>;
  let desktop: DesktopApp;
  let api: Server;
  const upstream: { url: string; auth: string | undefined }[] = [];
  const ENV_KEY = `pk_live_${'Q'.repeat(24)}`;

  beforeAll(async () => {
    // The environment profile's render API: a real HTTP server that records what reaches it.
    api = createServer((req: IncomingMessage, res) => {
      upstream.push({ url: req.url ?? '', auth: req.headers.authorization });
      if (req.url === '/api/jobs/job-1/video') {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '11' }).end('video-bytes');
      } else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"no"}}');
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const port = (api.address() as { port: number }).port;
    // Five minidumps left by earlier crashes.
    const userData = tempDir('ps-desktop-user-');
    mkdirSync(join(userData, 'logs/crashes/completed'), { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(userData, `logs/crashes/completed/${i}.dmp`), 'MDMP');
    app = launch({ userData, platform: 'darwin', env: { RENDER_API_BASE_URL: `http://127.0.0.1:${port}`, RENDER_API_KEY: ENV_KEY }, now: () => clock });
    desktop = app.desktop!;
    expect(await desktop.ready).toBe(true);
  });

  afterAll(async () => {
    if (app && app.electron.app.exitCode === null && !app.electron.app.quitting) {
      app.electron.app.quit();
      await app.electron.app.whenEnded();
    }
    await new Promise((r) => api?.close(r));
  });

  const win = () => app.electron.window as FakeWindow;

  it('opens one hardened window on studio-app:// and shows it', () => {
    expect(app.electron.windows).toHaveLength(1);
    expect(win().options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: join(app.root, 'dist/electron/preload.cjs') });
    expect(win().webContents.getURL()).toBe('studio-app://app/index.html');
    expect(win().shown).toBe(true);
    expect(desktop.window()).toBe(win());
  });

  it('serves the built renderer with the CSP, and nothing outside it', async () => {
    const index = await app.electron.fetch('studio-app://app/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Scripts from the app alone; media, pictures and a brand's font asset through the app's own
    // media scheme, never from a remote host.
    expect(index.headers.get('content-security-policy')).toBe([
      "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob: studio-media:",
      "media-src 'self' blob: studio-media:", "font-src 'self' data: studio-media:", "connect-src 'self' studio-media:",
      "object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].join('; '));
    expect((await app.electron.fetch('studio-app://app/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // The preview's fonts: the engine's own files in resources/fonts, not a copy in the build.
    for (const f of SCENE_FONTS) {
      const font = await app.electron.fetch(`studio-app://app/fonts/${f.file}`);
      expect(font.status, f.file).toBe(200);
      expect(font.headers.get('content-type'), f.file).toBe(f.file.endsWith('.otf') ? 'font/otf' : 'font/ttf');
      expect(Buffer.from(await font.arrayBuffer()).equals(readFileSync(join(ROOT, 'resources/fonts', f.file))), f.file).toBe(true);
    }
    for (const url of [
      'studio-app://app/fonts/..%2F..%2Fpackage.json',
      'studio-app://app/fonts/..%2F..%2F..%2Fpackage.json',
      'studio-app://app/fonts/make-subsets.py',
      'studio-app://app/..%2F..%2Fpackage.json',
      'studio-app://app/..%2Fsecret.txt',
      'studio-app://app/%2e%2e/%2e%2e/package.json', // the URL parser resolves these inside the folder
      'studio-app://app/assets/..%2F..%2F..%2Fpackage.json',
      'studio-app://app/..%5C..%5Cpackage.json',
      'studio-app://app/%E0%A4%A',
      'studio-app://other/index.html',
      'studio-app://app/secret.txt',
    ]) {
      const res = await app.electron.fetch(url);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain(PACKAGE_MARKER);
    }
  });

  it('streams media through studio-media:// with the key added there, and refuses anything outside its paths', async () => {
    const ok = await app.electron.fetch('studio-media://app/env/jobs/job-1/video');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('video-bytes');
    expect(ok.headers.get('access-control-allow-origin')).toBe('studio-app://app'); // the app's page alone may read it in CORS mode
    expect(upstream.find((u) => u.url === '/api/jobs/job-1/video')?.auth).toBe(`Bearer ${ENV_KEY}`);
    const before = upstream.length;
    for (const url of [
      'studio-media://app/env/jobs/..%2F..%2Fadmin/video',
      'studio-media://app/env/jobs/%2E%2E%2Fkeys/video',
      'studio-media://app/env/jobs/..%5Cadmin/video',
      'studio-media://app/env/jobs/job-1/../../../etc/passwd',
      'studio-media://app/env/keys/job-1/video',
      'studio-media://app/env/jobs/job-1/video/extra',
      'studio-media://evil.example/env/jobs/job-1/video',
      'studio-media://app/nobody/jobs/job-1/video',
    ]) {
      expect((await app.electron.fetch(url)).status, url).toBe(404);
    }
    // None of them reached the render API (its job sync may poll /api/jobs meanwhile).
    expect(upstream.slice(before).map((u) => u.url).filter((u) => /admin|keys|passwd|extra|\.\.|job-1/.test(u))).toEqual([]);
  });

  it('answers the renderer over IPC, only from its own window', async () => {
    const studio = createStudioApi(app.electron.ipcMain.rendererFor(win().webContents), app.electron.webUtils);
    expect(await studio.call('app.info', undefined)).toMatchObject({ version: '9.8.7', shell: 'electron' });
    const iframe = createStudioApi(app.electron.ipcMain.rendererFor(win().webContents, { url: 'studio-app://app/index.html' }), app.electron.webUtils);
    await expect(iframe.call('app.info', undefined)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('against a render API without the media library, assets.pick says so and opens no dialog', async () => {
    const studio = createStudioApi(app.electron.ipcMain.rendererFor(win().webContents), app.electron.webUtils);
    await expect(studio.call('assets.pick', { kinds: ['image'] })).rejects.toEqual({ code: 'unsupported', message: 'this render API does not support the media library (its health lists no "assets" extension)' });
    expect(app.electron.openDialogs).toEqual([]);
  });

  it('a closed window is forgotten and comes back on activate (dock click), with its size and place', async () => {
    const first = win();
    first.moveTo({ x: 140, y: 120, width: 1100, height: 760 });
    first.close();
    expect(app.electron.windows).toHaveLength(0);
    expect(desktop.window()).toBeNull();
    expect(app.electron.app.quitCalls).toBe(0); // macOS: the app stays
    await waitFor(() => existsSync(join(app.userData, 'window-state.json')), 'window state saved');
    // Its web contents no longer counts as ours.
    const stale = createStudioApi(app.electron.ipcMain.rendererFor(first.webContents), app.electron.webUtils);
    await expect(stale.call('app.info', undefined)).rejects.toMatchObject({ code: 'forbidden' });

    app.electron.app.emit('activate');
    const again = await waitFor(() => desktop.window(), 'a new window');
    expect(again).not.toBe(first);
    expect((again as FakeWindow).options).toMatchObject({ x: 140, y: 120, width: 1100, height: 760 });
    await waitFor(() => (again as FakeWindow).shown, 'the new window shown');
  });

  it('does not reuse a position on no display, and restores a maximised window', async () => {
    const stateFile = join(app.userData, 'window-state.json');
    win().moveTo({ x: 333, y: 222, width: 1000, height: 700 });
    win().close();
    // Saved on close (before it is replaced below).
    await waitFor(() => SavedBounds.parse(JSON.parse(readFileSync(stateFile, 'utf8'))).bounds.x === 333, 'the state saved on close');
    writeFileSync(stateFile, JSON.stringify({ bounds: { x: 5000, y: 3000, width: 900, height: 700 }, maximized: true }));
    app.electron.app.emit('second-instance');
    const w = (await waitFor(() => desktop.window(), 'a new window')) as FakeWindow;
    expect(w.options).toMatchObject({ width: 900, height: 700, center: true });
    expect(w.options.x).toBeUndefined();
    expect(w.maximized).toBe(true);
  });

  it('a notification click after the window was closed opens a new window instead of throwing', async () => {
    win().close();
    expect(desktop.window()).toBeNull();
    const job = { id: 'job-n1', status: 'completed', text: 'Our quarterly results,   in short.', error: null } as unknown as Job;
    desktop.events()!.emit({ type: 'job', job } as StudioEvent);
    desktop.events()!.emit({ type: 'job', job } as StudioEvent); // the same end is announced once
    const n = app.electron.notifications.filter((x) => x.options.title === 'Video ready');
    expect(n).toHaveLength(1);
    expect(n[0]!.options.body).toBe('Our quarterly results, in short.');
    const errors: unknown[] = [];
    app.host.on('unhandledRejection', (e) => void errors.push(e));
    n[0]!.click();
    const w = await waitFor(() => desktop.window(), 'a window after the click');
    await waitFor(() => (w as FakeWindow).shown && (w as FakeWindow).focused, 'the window shown and focused');
    expect(errors).toEqual([]);
    expect(logText(app.userData)).not.toContain('Object has been destroyed');
  });

  it('job events reach the renderer', async () => {
    const studio: StudioApi = createStudioApi(app.electron.ipcMain.rendererFor(win().webContents), app.electron.webUtils);
    const seen: StudioEvent[] = [];
    studio.subscribe((e) => void seen.push(e));
    const job = { id: 'job-e1', status: 'rendering', text: 'x', error: null } as unknown as Job;
    desktop.events()!.emit({ type: 'job', job } as StudioEvent);
    await waitFor(() => seen.some((e) => e.type === 'job' && e.job.id === 'job-e1'), 'the event in the renderer');
  });

  it('a crashed renderer is reloaded once; a second crash soon after shows the crash page', async () => {
    const w = win();
    w.webContents.crash('crashed');
    expect(w.webContents.reloads).toBe(1);
    clock += 30_000;
    w.webContents.crash('oom');
    expect(w.webContents.reloads).toBe(1);
    await waitFor(() => w.webContents.getURL() === 'studio-app://app/crashed.html', 'the crash page');
    const page = await app.electron.fetch('studio-app://app/crashed.html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('href="index.html"');
    // Much later, a crash is a first crash again.
    clock += CRASH_REPEAT_MS + 1;
    w.webContents.crash('crashed');
    expect(w.webContents.reloads).toBe(2);
    // A window closing normally is no crash.
    w.webContents.crash('clean-exit');
    expect(w.webContents.reloads).toBe(2);
    const log = logText(app.userData);
    expect(log).toMatch(/ERROR window renderer gone: crashed, exit code 139/);
    expect(log).toMatch(/ERROR window renderer gone: oom/);
  });

  it('logs a child process that went away, a window that hangs, and earlier crash reports', () => {
    app.electron.app.emit('child-process-gone', {}, { type: 'GPU', reason: 'crashed', exitCode: 11 });
    win().emit('unresponsive');
    win().emit('responsive');
    const log = logText(app.userData);
    expect(log).toMatch(/WARN {2}child process gone: GPU: crashed, exit code 11/);
    expect(log).toMatch(/WARN {2}the window is not responding\n.* INFO {2}the window responds again/);
    expect(log).toContain(`3 crash report(s) from earlier runs in ${join(app.userData, 'logs', 'crashes')}`);
    expect(readdirSync(join(app.userData, 'logs/crashes/completed'))).toHaveLength(3);
  });

  it('refuses navigation away, webviews and new windows; opens only the project pages in the browser', () => {
    const wc = win().webContents;
    expect(wc.navigate('studio-app://app/index.html')).toBe(true);
    expect(wc.navigate('https://evil.example/')).toBe(false);
    expect(wc.navigate('file:///etc/passwd', 'will-redirect')).toBe(false);
    expect(wc.navigate('studio-app://app.evil/index.html')).toBe(false);
    const attach = { prevented: false, preventDefault() { this.prevented = true; } };
    wc.emit('will-attach-webview', attach);
    expect(attach.prevented).toBe(true);

    const open = (url: string) => wc.windowOpenHandler!({ url });
    for (const url of [`${HOMEPAGE}`, `${HOMEPAGE}/desktop#logs`, 'https://PRESENTER.example/docs/intro?x=1']) expect(open(url)).toEqual({ action: 'deny' });
    for (const url of [
      'https://evil.example/',
      'https://presenter.example/docs.evil.example/',
      'https://presenter.example/docsx',
      'https://presenter.example/docs/../admin',
      'https://presenter.example/other',
      'http://presenter.example/docs',
      'https://user:pass@presenter.example/docs',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ])
      expect(open(url)).toEqual({ action: 'deny' });
    expect(app.electron.opened.external).toEqual([HOMEPAGE, `${HOMEPAGE}/desktop#logs`, 'https://PRESENTER.example/docs/intro?x=1']);
  });

  it('grants only fullscreen and clipboard writes, only to its own pages', () => {
    const ask = (permission: string, url: string) => {
      let granted: boolean | null = null;
      app.electron.permissionRequest!({ getURL: () => url } as never, permission, (g) => (granted = g));
      return granted;
    };
    expect(ask('fullscreen', 'studio-app://app/index.html')).toBe(true);
    expect(ask('clipboard-sanitized-write', 'studio-app://app/index.html')).toBe(true);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal']) expect(ask(p, 'studio-app://app/index.html'), p).toBe(false);
    expect(ask('fullscreen', 'https://evil.example/')).toBe(false);
    expect(app.electron.permissionCheck!(null, 'fullscreen', 'studio-app://app')).toBe(true);
    expect(app.electron.permissionCheck!(null, 'media', 'studio-app://app')).toBe(false);
    expect(app.electron.permissionCheck!(null, 'fullscreen', 'https://evil.example')).toBe(false);
  });

  it('Help → Show Logs opens the log folder; File → Open Data Folder the data folder', () => {
    expect(app.electron.menuItem('appMenu')).toBeDefined(); // macOS
    (app.electron.menuItem('help', 'Show Logs')!.click as () => void)();
    (app.electron.menuItem('File', 'Open Data Folder')!.click as () => void)();
    expect(app.electron.opened.paths).toEqual([join(app.userData, 'logs'), app.userData]);
    expect(existsSync(join(app.userData, 'logs', 'main.log'))).toBe(true);
    expect(app.electron.menuItem('View', 'toggleDevTools')).toBeDefined(); // from a checkout
  });

  it('logs startup, the local studio, and uncaught errors — never a key', async () => {
    const studio = createStudioApi(app.electron.ipcMain.rendererFor(win().webContents), app.electron.webUtils);
    await waitFor(async () => ((await studio.call('studio.status', undefined)) as { state: string }).state === 'running', 'the local studio running', 90_000);
    const keytar = (await import('keytar')).default;
    const localKey = await keytar.getPassword(SECRET_SERVICE, 'local').catch(() => null);
    app.host.emit('uncaughtException', new Error(`request to the render API failed: Authorization: Bearer ${ENV_KEY}`));
    app.host.emit('unhandledRejection', new Error(`x-api-key: ${ENV_KEY}; also ${localKey ?? 'psk_abcdefghijkl_' + 'z'.repeat(43)}`));
    app.host.emit('uncaughtException', new Error('the same kind of error again'));
    // A data file found corrupt (services/atomic-file.ts) is reported as a process warning.
    const warning = Object.assign(new Error('/u/profiles.json is unreadable (not JSON); moved aside to /u/profiles.json.corrupt, read as empty'), { name: 'CorruptFileWarning' });
    app.host.emit('warning', warning);
    const log = logText(app.userData);
    expect(log).toMatch(/WARN {2}\/u\/profiles\.json is unreadable \(not JSON\); moved aside/);
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}Presenter Studio 9\.8\.7 starting/m);
    expect(log).toMatch(/INFO {2}\[studio\] .*127\.0\.0\.1/); // the studio's ready line
    expect(log).toMatch(/ERROR uncaught exception: Error: request to the render API failed: Authorization: \[redacted\]/);
    expect(log).toMatch(/ERROR unhandled promise rejection/);
    expect(log).toMatch(/the same kind of error again/); // logged, though no second box
    expect(log).not.toContain(ENV_KEY);
    expect(log).not.toMatch(/psk_[a-z0-9]{12}_/);
    if (localKey) expect(log).not.toContain(localKey);
    expect(app.electron.errorBoxes.map((b) => b.title)).toEqual(['Presenter Studio: unexpected error']);
    expect(app.electron.errorBoxes[0]!.content).not.toContain(ENV_KEY);
  }, 120_000);

  it('quitting stops the local studio before the app ends', async () => {
    const studioDir = join(app.userData, 'studio');
    expect(processesWith(studioDir).length).toBeGreaterThan(0);
    app.electron.app.quit(); // Cmd+Q: before-quit is held until the studio stopped
    expect(app.electron.app.quitting).toBe(false);
    expect(await app.electron.app.whenEnded()).toBe('quit');
    expect(app.electron.app.quitCalls).toBe(2);
    expect(processesWith(studioDir)).toEqual([]);
    expect(logText(app.userData)).toMatch(/INFO {2}stopped$/m);
  }, 60_000);
});
