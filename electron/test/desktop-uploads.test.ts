// Files dropped on the desktop window: window.studio.upload(file) in the preload takes the
// File's path from Electron (webUtils) and sends it over IPC to the main side, which streams it
// to the render API. A page cannot name a path itself, nor can another frame send one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IPC_CHANNEL_PREFIX, type StudioApi, type StudioEvent, type UploadStatus } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { registerBridge, sendEvent, trustedSender } from '../app/ipc/main-bridge.js';
import { createStudioApi } from '../app/ipc/renderer-bridge.js';
import { APP_ORIGIN } from '../app/protocols.js';
import type { Studio } from '../services/studio.js';
import { startAssetApi, type AssetApiStandIn } from './asset-api-stand-in.js';
import { FakeElectron, LockRegistry, type FakeWindow } from './fake-electron.js';
import { remoteOnlyStudio, ROOT, tempDir, waitFor } from './helpers.js';

const KEY = 'psk_desktop_uploads_0123';
const dataDir = tempDir('ps-ipc-up-');
const electron = new FakeElectron({ locks: new LockRegistry(), appPath: ROOT, userData: dataDir });
let assetApi: AssetApiStandIn;
let studio: Studio;
let ours: FakeWindow;
let api: StudioApi;
const events: StudioEvent[] = [];

beforeAll(async () => {
  assetApi = await startAssetApi({ key: KEY });
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
});

afterAll(async () => {
  await studio?.close();
  await assetApi?.stop();
});

const posts = () => assetApi.requests.filter((r) => r.method === 'POST').length;

describe('dropping a file on the window', () => {
  it('uploads it by its path; progress and the asset come back as events', async () => {
    const path = join(tempDir(), 'Logo.png');
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(5000, 3)]);
    writeFileSync(path, bytes);
    const file = new File([bytes], 'Logo.png', { type: 'image/png' });
    electron.droppedFiles.set(file, path);
    const started = await api.upload(file);
    expect(started).toMatchObject({ name: 'Logo.png', state: 'uploading', sizeBytes: bytes.length });
    const done = await waitFor(() => events.find((e): e is Extract<StudioEvent, { type: 'upload' }> => e.type === 'upload' && e.upload.uploadId === started.uploadId && e.upload.state === 'done')?.upload, 'the upload to finish');
    expect(done.asset).toMatchObject({ name: 'Logo.png', kind: 'image' });
    expect(assetApi.received.at(-1)!.bytes.equals(bytes)).toBe(true);
    expect((await api.call('assets.uploads', undefined)).map((u: UploadStatus) => u.uploadId)).toContain(started.uploadId);
  });

  it('refuses a File the page made itself (no path), and a path named by the page', async () => {
    const before = posts();
    await expect(api.upload(new File(['x'], 'made-up.png'))).rejects.toEqual({ code: 'invalid_input', message: 'only files dropped or chosen from this computer can be added' });
    await expect(api.call('assets.uploadPath', { path: '/etc/passwd' })).rejects.toMatchObject({ code: 'forbidden' });
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
