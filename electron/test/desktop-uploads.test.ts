// Files dropped on the desktop window: window.studio.upload(file) in the preload takes the
// File's path from Electron (webUtils) and sends it over IPC to the main side, which streams it
// to the render API (the real one here). A page cannot name a path itself, nor can another frame send one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IPC_CHANNEL_PREFIX, type StudioApi, type StudioEvent, type UploadStatus } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { registerBridge, sendEvent, trustedSender } from '../app/ipc/main-bridge.js';
import { createStudioApi } from '../app/ipc/renderer-bridge.js';
import { APP_ORIGIN } from '../app/protocols.js';
import type { Studio } from '../services/studio.js';
import { picture } from '../../server/test/fixtures/media.js';
import { FakeElectron, LockRegistry, type FakeWindow } from './fake-electron.js';
import { apiRequests, askApi, createKey, remoteOnlyStudio, ROOT, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const dataDir = tempDir('ps-ipc-up-');
const electron = new FakeElectron({ locks: new LockRegistry(), appPath: ROOT, userData: dataDir });
let assetApi: RunningApi;
let KEY: string;
let studio: Studio;
let ours: FakeWindow;
let api: StudioApi;
const events: StudioEvent[] = [];

beforeAll(async () => {
  const apiData = tempDir('ps-api-');
  KEY = createKey(apiData, { user: 'dropper' });
  assetApi = await startApi(apiData, 0, ['--log-level', 'info']);
  studio = await remoteOnlyStudio(dataDir, { timeoutMs: 3000, retries: 0 });
  const p = await dispatch(studio.handlers, 'profiles.save', { name: 'Team', baseUrl: assetApi.url, keyHeader: 'bearer', key: KEY });
  if (!p.ok) throw new Error(p.error.message);
  await dispatch(studio.handlers, 'profiles.select', { id: (p.value as { id: string }).id });
  registerBridge(electron.ipcMain, studio.handlers, trustedSender(APP_ORIGIN, (wc) => electron.BrowserWindow.fromWebContents(wc) !== null));
  ours = new electron.BrowserWindow({}) as FakeWindow;
  ours.webContents.mainFrame.url = `${APP_ORIGIN}/index.html`;
  studio.events.subscribe((e) => sendEvent(ours.webContents, e));
  api = createStudioApi(electron.ipcMain.rendererFor(ours.webContents), electron.webUtils);
  api.subscribe((e) => events.push(e));
}, 60_000);

afterAll(async () => {
  await studio?.close();
  await assetApi?.stop();
});

/** Uploads the real API was asked for (its request log). */
const posts = () => apiRequests(assetApi, 'POST', '/api/assets').length;

describe('dropping a file on the window', () => {
  it('uploads it by its path; progress and the asset come back as events', async () => {
    const path = join(tempDir(), 'Logo.png');
    const bytes = picture(200, 120, 'png');
    writeFileSync(path, bytes);
    const file = new File([new Uint8Array(bytes)], 'Logo.png', { type: 'image/png' });
    electron.droppedFiles.set(file, path);
    const started = await api.upload(file);
    expect(started).toMatchObject({ name: 'Logo.png', state: 'uploading', sizeBytes: bytes.length });
    const done = await waitFor(() => events.find((e): e is Extract<StudioEvent, { type: 'upload' }> => e.type === 'upload' && e.upload.uploadId === started.uploadId && e.upload.state === 'done')?.upload, 'the upload to finish');
    expect(done.asset).toMatchObject({ name: 'Logo.png', kind: 'image' });
    const stored = await fetch(`${assetApi.url}/api/assets/${done.asset!.id}/content`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await askApi<{ name: string; width: number }>(assetApi.url, KEY, `/api/assets/${done.asset!.id}`)).body).toMatchObject({ name: 'Logo.png', width: 200 });
    expect((await api.call('assets.uploads', undefined)).map((u: UploadStatus) => u.uploadId)).toContain(started.uploadId);
  });

  it('refuses a File the page made itself (no path), and a path named by the page', async () => {
    const before = posts();
    await expect(api.upload(new File(['x'], 'made-up.png'))).rejects.toEqual({ code: 'invalid_input', message: 'only files dropped or chosen from this computer can be added' });
    await expect(api.call('assets.uploadPath', { path: '/etc/passwd' })).rejects.toMatchObject({ code: 'forbidden' });
    // A request after them is in the API's log: had they sent anything, it would be there first.
    const lists = apiRequests(assetApi, 'GET', '/api/assets').length;
    await api.call('assets.list', undefined);
    await waitFor(() => apiRequests(assetApi, 'GET', '/api/assets').length > lists, 'the list request in the API log');
    expect(posts()).toBe(before);
  });

  it('the main side refuses the upload channel from another frame, and checks its input', async () => {
    const iframe = electron.ipcMain.rendererFor(ours.webContents, { url: `${APP_ORIGIN}/index.html` });
    expect(await iframe.invoke(`${IPC_CHANNEL_PREFIX}assets.uploadPath`, { path: '/etc/hostname' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const main = electron.ipcMain.rendererFor(ours.webContents);
    expect(await main.invoke(`${IPC_CHANNEL_PREFIX}assets.uploadPath`, { path: '' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await main.invoke(`${IPC_CHANNEL_PREFIX}assets.uploadPath`, { path: '/etc/hostname', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
