// The two halves of the Electron bridge talking over an in-memory ipcMain/ipcRenderer pair
// (messages structured-cloned, as Electron does): window.studio as the preload builds it, the
// main side's sender check, dispatch and the real studio handlers (drafts on disk, the
// bundled catalogs), and events back to the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BRIDGE_METHODS, type StudioApi, type StudioEvent } from '../../shared/bridge/index.js';
import { registerBridge, sendEvent, trustedSender } from '../app/ipc/main-bridge.js';
import { createStudioApi } from '../app/ipc/renderer-bridge.js';
import { APP_ORIGIN, MEDIA_BASE } from '../app/protocols.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio, type Studio } from '../services/studio.js';
import { FakeElectron, LockRegistry, type FakeWindow } from './fake-electron.js';
import { draftInput, ROOT, tempDir, testLogger } from './helpers.js';

const dataDir = tempDir('ps-ipc-');
const electron = new FakeElectron({ locks: new LockRegistry(), appPath: ROOT, userData: dataDir });
let studio: Studio;
let unregister: () => void;
let ours: FakeWindow;
let api: StudioApi;

beforeAll(() => {
  studio = createStudio({
    shell: 'electron',
    version: '1.2.3',
    dataDir,
    resourcesDir: join(ROOT, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env: null, editable: true, local: true }),
    env: null,
    localStudio: null,
    userId: 'desktop',
    mediaBase: MEDIA_BASE,
    log: testLogger(),
  });
  unregister = registerBridge(electron.ipcMain, studio.handlers, trustedSender(APP_ORIGIN, (wc) => electron.BrowserWindow.fromWebContents(wc) !== null));
  ours = new electron.BrowserWindow({}) as FakeWindow;
  ours.webContents.mainFrame.url = `${APP_ORIGIN}/index.html`;
  api = createStudioApi(electron.ipcMain.rendererFor(ours.webContents), electron.webUtils);
});

afterAll(async () => {
  await studio?.close();
});

describe('the bridge over IPC', () => {
  it('has one channel per method of the bridge table', () => {
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual(BRIDGE_METHODS.map((m) => `studio:${m}`).sort());
  });

  it('runs the handlers and returns their values', async () => {
    expect(await api.call('app.info', undefined)).toEqual({ version: '1.2.3', shell: 'electron', platform: process.platform });
    const draft = await api.call('drafts.save', draftInput('Launch', 'Hello there.', { templateId: 'newsroom' }));
    expect(await api.call('drafts.get', { id: draft.id })).toMatchObject({ name: 'Launch', version: 3, scenes: [{ text: 'Hello there.' }] });
    const catalogs = await api.call('catalogs.get', undefined);
    expect(catalogs.templates.length).toBeGreaterThan(0);
  });

  it('rejects with a plain { code, message } for bad input, and an unknown method before any IPC', async () => {
    const bad = await api.call('drafts.get', { id: '../../etc/passwd' } as never).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'invalid_input' });
    expect(bad).not.toBeInstanceOf(Error);
    const extra = await api.call('app.info', { sneaky: true } as never).catch((e: unknown) => e);
    expect(extra).toMatchObject({ code: 'invalid_input' });
    const before = electron.ipcMain.invokes;
    await expect(api.call('secrets.dump' as never, {} as never)).rejects.toMatchObject({ code: 'not_found' });
    await expect(api.call('constructor' as never, {} as never)).rejects.toMatchObject({ code: 'not_found' });
    expect(electron.ipcMain.invokes).toBe(before);
  });

  it('refuses senders that are not the top frame of our window on the app origin', async () => {
    const iframe = createStudioApi(electron.ipcMain.rendererFor(ours.webContents, { url: `${APP_ORIGIN}/index.html` }), electron.webUtils);
    await expect(iframe.call('app.info', undefined)).rejects.toMatchObject({ code: 'forbidden' });

    const elsewhere = new electron.BrowserWindow({}) as FakeWindow;
    elsewhere.webContents.mainFrame.url = 'https://evil.example/';
    await expect(createStudioApi(electron.ipcMain.rendererFor(elsewhere.webContents), electron.webUtils).call('app.info', undefined)).rejects.toMatchObject({ code: 'forbidden' });

    const stranger = new electron.BrowserWindow({}) as FakeWindow;
    stranger.webContents.mainFrame.url = `${APP_ORIGIN}/index.html`;
    const strangerApi = createStudioApi(electron.ipcMain.rendererFor(stranger.webContents), electron.webUtils);
    stranger.close(); // no longer a window of ours
    await expect(strangerApi.call('app.info', undefined)).rejects.toMatchObject({ code: 'forbidden' });
    elsewhere.close();
  });

  it('delivers events to every subscriber, a failing one not stopping the others, and none to a closed window', () => {
    const got: StudioEvent[] = [];
    const quiet = console.error;
    console.error = () => undefined;
    try {
      const stop = api.subscribe(() => {
        throw new Error('listener bug');
      });
      const off = api.subscribe((e) => void got.push(e));
      const event: StudioEvent = { type: 'connection', profileId: 'local', online: false };
      sendEvent(ours.webContents, event);
      expect(got).toEqual([event]);
      off();
      stop();
      sendEvent(ours.webContents, event);
      expect(got).toHaveLength(1);
    } finally {
      console.error = quiet;
    }
    const gone = new electron.BrowserWindow({}) as FakeWindow;
    gone.close();
    expect(() => sendEvent(gone.webContents, { type: 'connection', profileId: 'local', online: true })).not.toThrow();
  });

  it('unregisters every channel', async () => {
    unregister();
    expect(electron.ipcMain.handlers.size).toBe(0);
    await expect(api.call('app.info', undefined)).rejects.toThrow(/No handler registered/);
  });
});
